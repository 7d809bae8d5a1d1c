import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../sim/testing/eventually.ts";
import { anActor } from "../domain/test-fixtures.ts";
import type { Store } from "../store/index.ts";
import type { SandboxRecord } from "../domain/sandbox-record.ts";
import { LiveSandboxes } from "./live-sandboxes.ts";
import { OperationsInFlight } from "./operations-in-flight.ts";
import { deleteSandbox, execInSandbox, type ActionDeps } from "./sandbox-actions.ts";
import { StatusReconciler } from "./status-reconciler.ts";
import { startReconciledWorld, type ReconciledWorld } from "./testing/reconciled-world.ts";

// Two Berth replicas on one store and one cluster: the world's, whose reconciler leads, and
// another whose reconciler follows until it is made leader. What the other does, the world's
// reconciler must not take for something done outside Berth; only the leader writes.

let world: ReconciledWorld;
let otherReplica: ActionDeps;
let follower: StatusReconciler;
let followerLeads = false;
const followerWrites: string[] = [];
const followerList = new LiveSandboxes();
beforeAll(async () => {
  world = await startReconciledWorld({}, undefined, { shareOperations: true });
  const shared = { replica: "replica-b", operations: world.deps.store.operations };
  otherReplica = {
    ...world.deps,
    inFlight: new OperationsInFlight({ ...shared, kind: "lifecycle" }),
    checkpointing: new OperationsInFlight({ ...shared, kind: "checkpoint" }),
    live: followerList,
  };
  const { store } = world.deps;
  // The follower's store, counting what it writes.
  const followerStore: Store = {
    ...store,
    sandboxes: { ...store.sandboxes, saveStatus: (...args) => (followerWrites.push(`status of ${args[0]}`), store.sandboxes.saveStatus(...args)) },
    timeline: { ...store.timeline, appendEvent: (event) => (followerWrites.push(`${event.reason} on ${event.sandboxId}`), store.timeline.appendEvent(event)) },
  };
  follower = new StatusReconciler({
    connection: world.deps.connection,
    store: followerStore,
    sandboxApiVersion: "v1beta1",
    labelPrefix: world.deps.defaults.labelPrefix,
    workspaceMountPath: world.deps.defaults.workspaceMountPath,
    inFlight: otherReplica.inFlight as OperationsInFlight,
    checkpointing: otherReplica.checkpointing as OperationsInFlight,
    live: followerList,
    leading: () => followerLeads,
  });
  await follower.start();
}, 60_000);
afterAll(async () => {
  follower?.stop();
  await world?.stop();
});

const reasonsOn = async (record: SandboxRecord) => (await world.deps.store.timeline.listAllForSandbox(record.id)).map((event) => event.reason);

describe("a delete through another replica", () => {
  let record: SandboxRecord;
  beforeAll(async () => {
    record = await world.readySandbox({ name: "shared-box", workspace: { claim: { ownership: "delete" } } });
    // The claim sweep waits a moment after the Sandbox is gone, long enough for this replica's
    // reconciler to see it gone and look.
    world.sim.faults.injectApiFault({ verb: "list", resource: "persistentvolumeclaims", latencyMs: 1_000, count: 1 });
    await deleteSandbox(otherReplica, record.id, anActor("bob"));
    await world.reconciler.idle();
  }, 60_000);

  it("is recorded once, as Berth's delete, not as one outside Berth", async () => {
    expect((await reasonsOn(record)).filter((reason) => reason === "Deleted" || reason === "DeletedOutsideBerth")).toEqual(["Deleted"]);
  });
});

describe("a checkpoint running in another replica", () => {
  it("refuses a command through this one, as it would there", async () => {
    const record = await world.readySandbox({ name: "busy-box", workspace: { backend: "ephemeral" } });
    let release = () => {};
    const running = otherReplica.checkpointing!.run(record.id, () => new Promise<void>((resolve) => (release = resolve)));
    try {
      await expect(execInSandbox(world.deps, record.id, ["true"], 5, anActor("alice"))).rejects.toThrow(/is checkpointing/);
    } finally {
      release();
      await running;
    }
  });
});

describe("a sandbox made while one replica leads and the other follows", () => {
  let record: SandboxRecord;
  beforeAll(async () => {
    record = await world.readySandbox({ name: "followed-box" });
    await Promise.all([world.reconciler.idle(), follower.idle()]);
  }, 60_000);

  it("is written by the leader alone", () => {
    expect(followerWrites).toEqual([]);
  });

  it("is in the follower's list of live sandboxes as the leader wrote it", async () => {
    await eventually(() => expect(followerList.get(record.id)?.phase).toBe("Ready"));
  });

  it("follows every record written to the store, also one no watch of its own would show", async () => {
    const written = await world.deps.store.sandboxes.recordSandbox({ name: "only-in-the-store", namespace: "default", spec: { name: "only-in-the-store" }, workspaceBackend: "ephemeral" });
    await eventually(() => expect(followerList.get(written.id)?.name).toBe("only-in-the-store"));
  });
});

describe("the follower, once the leader is gone and it leads", () => {
  it("takes up the work: a pod lost from then on is replaced and recorded", async () => {
    const record = await world.readySandbox({ name: "handed-over-box" });
    world.reconciler.stop();
    followerLeads = true;
    follower.leadershipChanged();
    await fetch(`${world.sim.serverUrl}/api/v1/namespaces/default/pods/${record.name}?gracePeriodSeconds=0`, { method: "DELETE", headers: { Authorization: `Bearer ${world.sim.adminToken}` } });
    await world.recordWhen(record.id, (now) => {
      if (now.phase !== "Ready" || now.podUid === record.podUid) throw new Error(`${now.phase}, pod ${now.podUid}`);
    });
  });
});
