import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DeposedWriterError } from "../store/index.ts";
import type { SandboxRecord } from "../domain/sandbox-record.ts";
import { LiveSandboxes } from "./live-sandboxes.ts";
import { OperationsInFlight } from "./operations-in-flight.ts";
import { StatusReconciler } from "./status-reconciler.ts";
import { startReconciledWorld, type ReconciledWorld } from "./testing/reconciled-world.ts";

// A leader deposed while it was paused wakes up and reconciles as if it still led: the store
// refuses its writes. The world's own reconciler made the sandbox Ready and is then stopped, so
// that nothing but the deposed leader would change what is stored.

let world: ReconciledWorld;
let record: SandboxRecord;
beforeAll(async () => {
  world = await startReconciledWorld();
  const ready = await world.readySandbox({ name: "fenced-box" });
  record = await world.recordWhen(ready.id, (now) => {
    if (!now.details.stateMarker) throw new Error("the state marker is not written yet");
  });
  world.reconciler.stop();
}, 60_000);
afterAll(() => world?.stop());

describe("a leader deposed while it was paused, that wakes up", () => {
  it("has its writes refused by the store, which keeps what the new leader's term allows", async () => {
    const { store } = world.deps;
    await store.writerTerms.claim({ lease: "berth-leader", term: 7 }, "replica-new", new Date());
    const { details, ...status } = record;
    await store.sandboxes.saveStatus(record.id, { ...status, details, message: "not what the cluster shows" }, { lease: "berth-leader", term: 7 });
    const deposed = new StatusReconciler({
      connection: world.deps.connection,
      store,
      sandboxApiVersion: "v1beta1",
      labelPrefix: world.deps.defaults.labelPrefix,
      inFlight: new OperationsInFlight(),
      live: new LiveSandboxes(),
      leading: () => true,
      fence: () => ({ lease: "berth-leader", term: 6 }),
    });
    try {
      await deposed.start();
      await expect(deposed.reconcile(record.id)).rejects.toThrow(DeposedWriterError);
    } finally {
      deposed.stop();
    }
  });
});
