import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gatewayDefaultsSchema } from "../domain/gateway-defaults.ts";
import type { SandboxRecord } from "../domain/sandbox-record.ts";
import { connectToEmbeddedCluster } from "../kube/cluster-connection.ts";
import { sandboxResources, type SandboxResources } from "../kube/sandbox-resources.ts";
import { startSimulatedCluster, type ApiFault, type SimCluster } from "../sim/index.ts";
import { eventually } from "../sim/testing/eventually.ts";
import { openStore, type Store } from "../store/index.ts";
import { LiveSandboxes } from "./live-sandboxes.ts";
import { OperationsInFlight } from "./operations-in-flight.ts";
import { StatusReconciler } from "./status-reconciler.ts";

// A console process killed in the middle of a create (SIGKILL: no undo runs), then a new one
// started on the same data directory: its reconciler must finish the job the dead one could not,
// removing what the create made and closing the record with a timeline that says why.

const CONSOLE = path.join(import.meta.dirname, "testing", "console-that-creates.ts");
const SPEC = { name: "half-made", workspace: { claim: { ownership: "delete" } } };

interface Restarted {
  sim: SimCluster;
  store: Store;
  resources: SandboxResources;
  reconciler: StatusReconciler;
  record: SandboxRecord;
  cleanup: () => Promise<void>;
}

function startConsole(dataDir: string, server: string, token: string): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", CONSOLE], {
    env: { ...process.env, BERTH_TEST_DATA_DIR: dataDir, BERTH_TEST_SERVER: server, BERTH_TEST_TOKEN: token, BERTH_TEST_SPEC: JSON.stringify(SPEC) },
    stdio: ["ignore", "pipe", "inherit"],
  });
}

/**
 * Holds the create at `fault` (a slow request), kills the console once `reached` says the create
 * got there, and starts a new console's reconciler on the same store.
 */
async function killMidCreateAndRestart(fault: ApiFault, reached: (resources: SandboxResources) => Promise<boolean>): Promise<Restarted> {
  const sim = await startSimulatedCluster({ clockScale: 200 });
  const dataDir = mkdtempSync(path.join(tmpdir(), "berth-restart-"));
  const resources = sandboxResources(connectToEmbeddedCluster(sim.serverUrl, sim.adminToken), "v1beta1");
  sim.faults.injectApiFault(fault);
  const child = startConsole(dataDir, sim.serverUrl, sim.adminToken);
  const exited = new Promise((resolve) => child.once("exit", resolve));
  await eventually(async () => {
    if (child.exitCode !== null) throw new Error(`the console exited (${child.exitCode}) before the create got there`);
    if (!(await reached(resources))) throw new Error("the create has not got there yet");
  }, { timeoutMs: 30_000, intervalMs: 50 });
  child.kill("SIGKILL");
  await exited;
  const killedAt = Date.now();

  const store = await openStore({ kind: "pglite", dataDir });
  const reconciler = new StatusReconciler({ connection: connectToEmbeddedCluster(sim.serverUrl, sim.adminToken), store, sandboxApiVersion: "v1beta1", labelPrefix: gatewayDefaultsSchema.parse({}).labelPrefix, inFlight: new OperationsInFlight(), live: new LiveSandboxes(), interruptedAfterMs: 0 });
  await reconciler.start();
  const record = await eventually(async () => {
    const [found] = (await store.sandboxes.listSandboxes({ limit: 1, includeDeleted: true })).items;
    if (!found?.deletedAt) throw new Error(`the record is ${found ? found.phase : "missing"}`);
    return found;
  }, { timeoutMs: 15_000 });
  // Give a request still in flight when the console died the time to land.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, killedAt + (fault.latencyMs ?? 0) - Date.now())));
  return {
    sim, store, resources, reconciler, record,
    cleanup: async () => {
      reconciler.stop();
      await store.close();
      await sim.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const claimsOf = (world: Restarted) => world.resources.listClaims("default", `berth.dev/sandbox-id=${world.record.id}`);

describe.each([
  {
    // Slower than a restart, so the Sandbox lands after the next console has undone the rest.
    when: "killed while its Sandbox request is on its way (the request lands after the restart)",
    fault: { verb: "create", resource: "sandboxes", latencyMs: 5_000, count: 1 },
    reached: async (resources: SandboxResources) => (await resources.listClaims("default", "berth.dev/managed-by=berth")).length > 0,
  },
  {
    when: "killed after its Sandbox was made, while the claim's owner reference is written",
    // The owner-reference patch lands long after; the claim it names is gone by then.
    fault: { verb: "patch", resource: "persistentvolumeclaims", latencyMs: 1_000, count: 1 },
    reached: async (resources: SandboxResources) => (await resources.readSandbox("default", SPEC.name)) !== null,
  },
])("a console $when", ({ fault, reached }) => {
  let world: Restarted;
  beforeAll(async () => {
    world = await killMidCreateAndRestart(fault, reached);
  }, 60_000);
  afterAll(() => world?.cleanup());

  it("has its record closed as CreateInterrupted by the next console", () => {
    expect([world.record.phase, world.record.reason]).toEqual(["Deleted", "CreateInterrupted"]);
  });

  it("leaves no Sandbox in the cluster", async () => {
    await eventually(async () => {
      const sandbox = await world.resources.readSandbox("default", SPEC.name);
      if (sandbox) throw new Error(`Sandbox ${SPEC.name} is still there (deleting: ${Boolean((sandbox.metadata as { deletionTimestamp?: string }).deletionTimestamp)})`);
    }, { timeoutMs: 15_000 });
  });

  it("leaves no claim the create made", async () => {
    await eventually(async () => {
      const names = (await claimsOf(world)).map((claim) => claim.metadata?.name);
      if (names.length > 0) throw new Error(`claims left: ${names.join(", ")}`);
    }, { timeoutMs: 15_000 });
  });

  it("tells the timeline what was undone", async () => {
    const events = await world.store.timeline.listForSandbox(world.record.id, { limit: 20 });
    expect(events[0]?.message).toMatch(/interrupted .* what it made was removed/);
  });
});
