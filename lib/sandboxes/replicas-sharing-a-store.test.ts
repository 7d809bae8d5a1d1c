import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anActor } from "../domain/test-fixtures.ts";
import type { SandboxRecord } from "../domain/sandbox-record.ts";
import { LiveSandboxes } from "./live-sandboxes.ts";
import { OperationsInFlight } from "./operations-in-flight.ts";
import { deleteSandbox, execInSandbox, type ActionDeps } from "./sandbox-actions.ts";
import { startReconciledWorld, type ReconciledWorld } from "./testing/reconciled-world.ts";

// Two Berth replicas on one store and one cluster: the world's (with its reconciler) and
// another that only serves commands. What the other does, the world's reconciler must not take
// for something done outside Berth.

let world: ReconciledWorld;
let otherReplica: ActionDeps;
beforeAll(async () => {
  world = await startReconciledWorld();
  const shared = { replica: "replica-b", operations: world.deps.store.operations };
  otherReplica = {
    ...world.deps,
    inFlight: new OperationsInFlight({ ...shared, kind: "lifecycle" }),
    checkpointing: new OperationsInFlight({ ...shared, kind: "checkpoint" }),
    live: new LiveSandboxes(),
  };
}, 60_000);
afterAll(() => world?.stop());

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
