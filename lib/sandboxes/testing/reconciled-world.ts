// Test support: a store, the lifecycle service and a running reconciler — what a Berth server
// process has, without the HTTP in front — on the embedded cluster or any cluster it can reach.
import { randomBytes } from "node:crypto";
import { anActor } from "../../domain/test-fixtures.ts";
import { gatewayDefaultsSchema } from "../../domain/gateway-defaults.ts";
import type { SandboxRecord } from "../../domain/sandbox-record.ts";
import { connectToEmbeddedCluster, type ClusterConnection } from "../../kube/cluster-connection.ts";
import { sandboxResources } from "../../kube/sandbox-resources.ts";
import { startSimulatedCluster, type SimCluster, type SimulatedClusterOptions } from "../../sim/index.ts";
import { eventually } from "../../sim/testing/eventually.ts";
import type { Store } from "../../store/index.ts";
import { createSandbox } from "../create-sandbox.ts";
import { LiveSandboxes } from "../live-sandboxes.ts";
import { operationsInFlightOn } from "../operations-in-flight.ts";
import type { ActionDeps } from "../sandbox-actions.ts";
import { StatusReconciler } from "../status-reconciler.ts";

/** What a Berth server process has, on whichever cluster `connection` reaches. */
export interface World {
  deps: ActionDeps;
  reconciler: StatusReconciler;
  /** Creates a sandbox and waits until the reconciler says it is Ready. */
  readySandbox(spec: Record<string, unknown>, timeoutMs?: number): Promise<SandboxRecord>;
  /** The stored record once `check` passes (it throws until then, saying what it saw). */
  recordWhen(id: string, check: (record: SandboxRecord) => void, timeoutMs?: number): Promise<SandboxRecord>;
  stop(): Promise<void>;
}

/** A World on the embedded cluster, whose faults a test can inject. */
export interface ReconciledWorld extends World {
  sim: SimCluster;
}

export type StoreOpener = () => Promise<{ store: Store; cleanup: () => Promise<void> }>;

/** Tests get the database under test; a benchmark passes its own (test-databases needs vitest). */
const openTestStore: StoreOpener = async () => (await import("../../store/test-databases.ts")).openTestStore();

export async function startReconciledWorld(options: SimulatedClusterOptions = {}, openStore: StoreOpener = openTestStore, worldOptions: WorldOptions = {}): Promise<ReconciledWorld> {
  const sim = await startSimulatedCluster({ clockScale: 200, ...options });
  const world = await startWorld(connectToEmbeddedCluster(sim.serverUrl, sim.adminToken), openStore, worldOptions);
  return {
    ...world,
    sim,
    async stop() {
      await world.stop();
      await sim.stop();
    },
  };
}

export interface WorldOptions {
  /**
   * Operations in flight kept in the store even when it is embedded, for a test of replicas
   * sharing one store. By default, as a server does: in the store on PostgreSQL only.
   */
  shareOperations?: boolean;
}

export async function startWorld(connection: ClusterConnection, openStore: StoreOpener = openTestStore, options: WorldOptions = {}): Promise<World> {
  const { store, cleanup } = await openStore();
  const { inFlight, checkpointing } = operationsInFlightOn(store, `test-${randomBytes(3).toString("hex")}`, { shareThroughStore: options.shareOperations });
  const live = new LiveSandboxes();
  // As the server's runtime does: the list holds what this process writes.
  live.follow(store.sandboxes);
  const defaults = gatewayDefaultsSchema.parse({});
  const deps: ActionDeps = { store, connection, resources: sandboxResources(connection, "v1beta1"), sandboxApiVersion: "v1beta1", defaults, inFlight, live, checkpointing };
  const reconciler = new StatusReconciler({ connection, store, sandboxApiVersion: "v1beta1", labelPrefix: defaults.labelPrefix, inFlight, live, checkpointing, workspaceMountPath: defaults.workspaceMountPath });
  await reconciler.start();
  const recordWhen = async (id: string, check: (record: SandboxRecord) => void, timeoutMs = 20_000) => {
    try {
      return await eventually(async () => {
        const record = await store.sandboxes.getSandbox(id);
        if (!record) throw new Error(`no record ${id}`);
        check(record);
        return record;
      }, { timeoutMs });
    } catch (error) {
      // The last state alone rarely says how the sandbox got there; its timeline does.
      (error as Error).message += `\ntimeline:\n${await timelineOf(store, id)}`;
      throw error;
    }
  };
  return {
    deps,
    reconciler,
    recordWhen,
    async readySandbox(spec, timeoutMs) {
      const { record } = await createSandbox(deps, spec, anActor("alice"));
      return recordWhen(record.id, (now) => {
        if (now.phase !== "Ready") throw new Error(`${now.name} is ${now.phase} (${now.reason}: ${now.message})`);
      }, timeoutMs);
    },
    async stop() {
      reconciler.stop();
      await cleanup();
    },
  };
}

/** A check for recordWhen: the phase (and reason, when given) is the one expected. */
export const inPhase = (phase: string, reason?: string) => (record: SandboxRecord) => {
  if (record.phase !== phase || (reason !== undefined && record.reason !== reason)) throw new Error(`${record.name} is ${record.phase}/${record.reason} (${record.message}), not ${phase}${reason ? `/${reason}` : ""}`);
};

async function timelineOf(store: Store, sandboxId: string): Promise<string> {
  const events = await store.timeline.listAllForSandbox(sandboxId).catch(() => []);
  return events.map((event) => `  ${event.occurredAt.toISOString()} ${event.type}/${event.reason}: ${event.message}`).join("\n") || "  (none)";
}
