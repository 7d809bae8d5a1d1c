import { anActor } from "../domain/test-fixtures.ts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
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
import { LiveSandboxes } from "./live-sandboxes.ts";
import { OperationsInFlight } from "./operations-in-flight.ts";
import { StatusReconciler, type StatusReconcilerOptions } from "./status-reconciler.ts";

// The reconciler against the embedded cluster: status derived from what the cluster shows,
// stored, and told on the timeline and the bus.

interface World {
  sim: SimCluster;
  store: Store;
  deps: CreateSandboxDeps;
  reconciler: StatusReconciler;
  stop: () => Promise<void>;
}

async function startWorld(options: SimulatedClusterOptions = {}, reconcilerOptions: Partial<StatusReconcilerOptions> = {}): Promise<World> {
  const sim = await startSimulatedCluster({ clockScale: 200, ...options });
  const connection = connectToEmbeddedCluster(sim.serverUrl, sim.adminToken);
  const { store, cleanup } = await openTestStore();
  const inFlight = reconcilerOptions.inFlight ?? new OperationsInFlight();
  const live = reconcilerOptions.live ?? new LiveSandboxes();
  const deps = { store, resources: sandboxResources(connection, "v1beta1"), sandboxApiVersion: "v1beta1" as const, defaults: gatewayDefaultsSchema.parse({}), inFlight, live };
  const reconciler = new StatusReconciler({ connection, store, sandboxApiVersion: "v1beta1", labelPrefix: "berth.dev", ...reconcilerOptions, inFlight, live });
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
    const { record } = await createSandbox(world.deps, { name: uniqueName() }, anActor("alice"));
    const ready = await phaseOf(world, record.id, "Ready");
    expect([ready.nodeName?.startsWith("worker-"), typeof ready.podUid]).toEqual([true, "string"]);
  });

  it("records the way to Ready on the timeline", async () => {
    const { record } = await createSandbox(world.deps, { name: uniqueName() }, anActor("alice"));
    await phaseOf(world, record.id, "Ready");
    const reasons = (await world.store.timeline.listForSandbox(record.id, { limit: 50 })).map((event) => event.reason);
    expect([reasons[0], reasons.at(-1)]).toEqual(["Created", "Ready"]);
  });

  it("publishes each change on the bus as it is stored", async () => {
    const seen: TimelineEvent[] = [];
    const unsubscribe = subscribeToTimeline((event) => seen.push(event));
    const { record } = await createSandbox(world.deps, { name: uniqueName() }, anActor("alice"));
    await phaseOf(world, record.id, "Ready");
    unsubscribe();
    expect(seen.some((event) => event.sandboxId === record.id && event.reason === "Ready")).toBe(true);
  });

  it("remembers the previous pod when the pod is replaced", async () => {
    const name = uniqueName();
    const { record } = await createSandbox(world.deps, { name }, anActor("alice"));
    const first = await phaseOf(world, record.id, "Ready");
    await fetch(`${world.sim.serverUrl}/api/v1/namespaces/default/pods/${name}?gracePeriodSeconds=0`, { method: "DELETE", headers: { Authorization: `Bearer ${world.sim.adminToken}` } });
    const replaced = await eventually(async () => {
      const now = await world.store.sandboxes.getSandbox(record.id);
      if (now?.phase !== "Ready" || now.podUid === first.podUid) throw new Error("not replaced yet");
      return now;
    }, { timeoutMs: 15_000 });
    expect(replaced.previousPodUid).toBe(first.podUid);
  });

  it("shows a stopped sandbox as Stopped", async () => {
    const name = uniqueName();
    const { record } = await createSandbox(world.deps, { name }, anActor("alice"));
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
    const { record } = await createSandbox(world.deps, { name: uniqueName() }, anActor("alice"));
    const stuck = await eventually(async () => {
      const now = await world.store.sandboxes.getSandbox(record.id);
      if (now?.reason !== "ClaimPending" || !now.message?.includes("no storage class is set")) throw new Error(`${now?.reason}: ${now?.message}`);
      return now;
    }, { timeoutMs: 15_000 });
    expect(stuck.phase).toBe("Provisioning");
  });

  it("brings an ephemeral sandbox to Ready", async () => {
    const { record } = await createSandbox(world.deps, { name: uniqueName(), workspace: { backend: "ephemeral" } }, anActor("alice"));
    await phaseOf(world, record.id, "Ready");
  });
});

describe("keeping the store and the cluster in step", () => {
  let world: World;
  const inFlight = new OperationsInFlight();
  const live = new LiveSandboxes();
  beforeAll(async () => {
    world = await startWorld({}, { inFlight, live, interruptedAfterMs: 0 });
    // As the runtime keeps it: following the store's writes, so it can vouch for the records it holds.
    live.follow(world.store.sandboxes);
    await live.load(world.store);
  });
  afterAll(() => world.stop());

  const reasonsOf = async (id: string) => (await world.store.timeline.listForSandbox(id, { limit: 50 })).map((event) => event.reason);

  /** A Sandbox as kubectl or another gateway would make it: no Berth labels. */
  const madeOutsideBerth = async (name: string) => {
    const response = await fetch(`${world.sim.serverUrl}/apis/agents.x-k8s.io/v1beta1/namespaces/default/sandboxes`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${world.sim.adminToken}` },
      body: JSON.stringify({
        apiVersion: "agents.x-k8s.io/v1beta1",
        kind: "Sandbox",
        metadata: { name },
        spec: { podTemplate: { spec: { containers: [{ name: "agent", image: "busybox:1.36", command: ["sleep", "infinity"] }] } } },
      }),
    });
    if (response.status !== 201) throw new Error(`the cluster refused the Sandbox: ${response.status} ${await response.text()}`);
  };

  const foundRecord = (name: string) =>
    eventually(async () => {
      const record = await world.store.sandboxes.findLiveSandbox("default", name);
      if (!record) throw new Error(`no record for ${name} yet`);
      return record;
    }, { timeoutMs: 15_000 });

  it("records a Sandbox made outside Berth as found there", async () => {
    const name = uniqueName();
    await madeOutsideBerth(name);
    const record = await foundRecord(name);
    expect([record.origin, (await reasonsOf(record.id))[0]]).toEqual(["cluster", "Discovered"]);
  });

  it("follows a Sandbox made outside Berth to Ready", async () => {
    const name = uniqueName();
    await madeOutsideBerth(name);
    await phaseOf(world, (await foundRecord(name)).id, "Ready");
  });

  it("closes the record of a Sandbox deleted outside Berth, and says so", async () => {
    const name = uniqueName();
    const { record } = await createSandbox(world.deps, { name }, anActor("alice"));
    await phaseOf(world, record.id, "Ready");
    await world.deps.resources.deleteSandbox("default", name);
    const closed = await phaseOf(world, record.id, "Deleted");
    expect([closed.reason, (await reasonsOf(record.id)).at(-1)]).toEqual(["DeletedOutsideBerth", "DeletedOutsideBerth"]);
  });

  it("keeps a retained claim when its Sandbox is deleted outside Berth", async () => {
    const name = uniqueName();
    const { record } = await createSandbox(world.deps, { name, workspace: { claim: { ownership: "retain" } } }, anActor("alice"));
    await phaseOf(world, record.id, "Ready");
    await world.deps.resources.deleteSandbox("default", name);
    await phaseOf(world, record.id, "Deleted");
    expect(await world.deps.resources.readClaim("default", `workspace-${name}`)).not.toBeNull();
  });

  const inLiveList = (id: string) => live.get(id);

  it("keeps the in-memory live list showing the status it stores", async () => {
    const { record } = await createSandbox(world.deps, { name: uniqueName() }, anActor("alice"));
    await phaseOf(world, record.id, "Ready");
    expect(inLiveList(record.id)?.phase).toBe("Ready");
  });

  it("takes a sandbox deleted outside Berth off the in-memory live list", async () => {
    const name = uniqueName();
    const { record } = await createSandbox(world.deps, { name }, anActor("alice"));
    await phaseOf(world, record.id, "Ready");
    await world.deps.resources.deleteSandbox("default", name);
    await phaseOf(world, record.id, "Deleted");
    expect(inLiveList(record.id)).toBeUndefined();
  });

  it("resyncs what it follows from the live list: no record read, no Sandbox looked up again", async () => {
    const name = uniqueName();
    await madeOutsideBerth(name);
    await phaseOf(world, (await foundRecord(name)).id, "Ready");
    await world.reconciler.idle();
    const reads = [vi.spyOn(world.store.sandboxes, "getSandbox"), vi.spyOn(world.store.sandboxes, "listSandboxes"), vi.spyOn(world.store.sandboxes, "findLiveSandbox")];
    try {
      await world.reconciler.resyncAll();
      await world.reconciler.idle();
      expect(reads.map((read) => read.mock.calls.length)).toEqual([0, 0, 0]);
    } finally {
      for (const read of reads) read.mockRestore();
    }
  });

  it("leaves a create that is still running in this process alone", async () => {
    const name = uniqueName();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const running = inFlight.run("00000000-0000-4000-8000-000000000001", async () => {
      const record = await world.store.sandboxes.recordSandbox({ id: "00000000-0000-4000-8000-000000000001", name, namespace: "default", spec: { name }, workspaceBackend: "pvc" });
      await held;
      return record;
    });
    await eventually(async () => {
      if (!(await world.store.sandboxes.findLiveSandbox("default", name))) throw new Error("not recorded yet");
    });
    await world.reconciler.reconcile("00000000-0000-4000-8000-000000000001");
    const during = await world.store.sandboxes.getSandbox("00000000-0000-4000-8000-000000000001");
    release();
    await running;
    expect([during?.phase, during?.deletedAt]).toEqual(["Pending", null]);
  });

  it("undoes a create that no process is running any more", async () => {
    const name = uniqueName();
    const record = await world.store.sandboxes.recordSandbox({ name, namespace: "default", spec: { name }, workspaceBackend: "pvc" });
    await world.reconciler.reconcile(record.id);
    expect((await world.store.sandboxes.getSandbox(record.id))?.reason).toBe("CreateInterrupted");
  });
});
