import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gatewayDefaultsSchema } from "../domain/gateway-defaults.ts";
import type { TimelineEvent } from "../domain/timeline.ts";
import { subscribeToTimeline } from "../events/event-bus.ts";
import { connectToEmbeddedCluster } from "../kube/cluster-connection.ts";
import { sandboxResources } from "../kube/sandbox-resources.ts";
import { startSimulatedCluster, type SimCluster, type SimulatedClusterOptions } from "../sim/index.ts";
import { eventually } from "../sim/testing/eventually.ts";
import type { Store } from "../store/index.ts";
import { openTestStore } from "../store/test-databases.ts";
import { createSandbox, type CreateSandboxDeps } from "./create-sandbox.ts";
import { StatusReconciler } from "./status-reconciler.ts";

// The reconciler against the embedded cluster: status derived from what the cluster shows,
// stored, and told on the timeline and the bus.

interface World {
  sim: SimCluster;
  store: Store;
  deps: CreateSandboxDeps;
  reconciler: StatusReconciler;
  stop: () => Promise<void>;
}

async function startWorld(options: SimulatedClusterOptions = {}): Promise<World> {
  const sim = await startSimulatedCluster({ clockScale: 200, ...options });
  const connection = connectToEmbeddedCluster(sim.serverUrl);
  const { store, cleanup } = await openTestStore();
  const deps = { store, resources: sandboxResources(connection, "v1beta1"), sandboxApiVersion: "v1beta1" as const, defaults: gatewayDefaultsSchema.parse({}) };
  const reconciler = new StatusReconciler({ connection, store, sandboxApiVersion: "v1beta1", labelPrefix: "berth.dev" });
  await reconciler.start();
  return {
    sim, store, deps, reconciler,
    stop: async () => {
      reconciler.stop();
      await sim.stop();
      await cleanup();
    },
  };
}

async function phaseOf(world: World, id: string, phase: string) {
  return eventually(async () => {
    const record = await world.store.sandboxes.getSandbox(id);
    if (record?.phase !== phase) throw new Error(`phase is ${record?.phase} (${record?.reason}: ${record?.message}), not ${phase}`);
    return record;
  }, { timeoutMs: 15_000 });
}

let counter = 0;
const uniqueName = () => `rec-${++counter}-${Date.now().toString(36)}`;

describe("on a cluster with a default StorageClass", () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(() => world.stop());

  it("brings a new sandbox to Ready, with the pod's node and uid", async () => {
    const { record } = await createSandbox(world.deps, { name: uniqueName() }, "alice");
    const ready = await phaseOf(world, record.id, "Ready");
    expect([ready.nodeName?.startsWith("worker-"), typeof ready.podUid]).toEqual([true, "string"]);
  });

  it("records the way to Ready on the timeline", async () => {
    const { record } = await createSandbox(world.deps, { name: uniqueName() }, "alice");
    await phaseOf(world, record.id, "Ready");
    const reasons = (await world.store.timeline.listForSandbox(record.id, { limit: 50 })).map((event) => event.reason);
    expect([reasons[0], reasons.at(-1)]).toEqual(["Created", "Ready"]);
  });

  it("publishes each change on the bus as it is stored", async () => {
    const seen: TimelineEvent[] = [];
    const unsubscribe = subscribeToTimeline((event) => seen.push(event));
    const { record } = await createSandbox(world.deps, { name: uniqueName() }, "alice");
    await phaseOf(world, record.id, "Ready");
    unsubscribe();
    expect(seen.some((event) => event.sandboxId === record.id && event.reason === "Ready")).toBe(true);
  });

  it("remembers the previous pod when the pod is replaced", async () => {
    const name = uniqueName();
    const { record } = await createSandbox(world.deps, { name }, "alice");
    const first = await phaseOf(world, record.id, "Ready");
    await fetch(`${world.sim.serverUrl}/api/v1/namespaces/default/pods/${name}?gracePeriodSeconds=0`, { method: "DELETE" });
    const replaced = await eventually(async () => {
      const now = await world.store.sandboxes.getSandbox(record.id);
      if (now?.phase !== "Ready" || now.podUid === first.podUid) throw new Error("not replaced yet");
      return now;
    }, { timeoutMs: 15_000 });
    expect(replaced.previousPodUid).toBe(first.podUid);
  });

  it("shows a stopped sandbox as Stopped", async () => {
    const name = uniqueName();
    const { record } = await createSandbox(world.deps, { name }, "alice");
    await phaseOf(world, record.id, "Ready");
    await world.deps.resources.setRunning("default", name, false);
    await phaseOf(world, record.id, "Stopped");
  });
});

describe("on a cluster with no default StorageClass", () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld({ defaultStorageClass: null });
  });
  afterAll(() => world.stop());

  it("reports a pvc sandbox without a class as Provisioning, with the claim-Pending reason", async () => {
    const { record } = await createSandbox(world.deps, { name: uniqueName() }, "alice");
    const stuck = await eventually(async () => {
      const now = await world.store.sandboxes.getSandbox(record.id);
      if (now?.reason !== "ClaimPending" || !now.message?.includes("no storage class is set")) throw new Error(`${now?.reason}: ${now?.message}`);
      return now;
    }, { timeoutMs: 15_000 });
    expect(stuck.phase).toBe("Provisioning");
  });

  it("brings an ephemeral sandbox to Ready", async () => {
    const { record } = await createSandbox(world.deps, { name: uniqueName(), workspace: { backend: "ephemeral" } }, "alice");
    await phaseOf(world, record.id, "Ready");
  });
});
