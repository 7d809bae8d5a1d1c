import { anActor } from "../domain/test-fixtures.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SandboxRecord } from "../domain/sandbox-record.ts";
import { LiveSandboxes } from "./live-sandboxes.ts";
import { checkpointSandbox } from "./checkpoint-sandbox.ts";
import { SandboxStateError } from "./lifecycle-errors.ts";
import { OperationsInFlight } from "./operations-in-flight.ts";
import { execInSandbox } from "./sandbox-actions.ts";
import { StatusReconciler } from "./status-reconciler.ts";
import { startReconciledWorld, type ReconciledWorld } from "./testing/reconciled-world.ts";

// Checkpoints through the lifecycle service against the embedded cluster: the hook runs in the
// agent container within its grace period, the workspace is flushed, the marker written, and
// the result recorded — and while it runs, the sandbox says so and refuses exec.

let world: ReconciledWorld;
beforeAll(async () => {
  world = await startReconciledWorld();
}, 30_000);
afterAll(() => world?.stop());

let counter = 0;
const withHook = (hook: string, policy: Record<string, unknown> = {}) => world.readySandbox({ name: `ckpt-${++counter}`, disruptionPolicy: { checkpointHook: ["sh", "-c", hook], ...policy } });
const reasonsOf = async (record: SandboxRecord) => (await world.deps.store.timeline.listForSandbox(record.id, { limit: 100 })).map((event) => event.reason);

describe("a checkpoint", () => {
  it("succeeds when the hook does, with the marker written", async () => {
    const record = await withHook("echo saving && echo saved > /sandbox/saved.txt");
    const checkpoint = await checkpointSandbox(world.deps, record.id, "Manual", anActor("alice"));
    expect([checkpoint.result, checkpoint.markerWritten]).toEqual(["Succeeded", true]);
  });

  it("leaves what the hook saved in the workspace", async () => {
    const record = await withHook("echo saved > /sandbox/saved.txt");
    await checkpointSandbox(world.deps, record.id, "Manual", anActor("alice"));
    expect((await execInSandbox(world.deps, record.id, ["cat", "/sandbox/saved.txt"], 10, anActor("alice"))).stdout).toBe("saved\n");
  });

  it("fails when the hook fails, keeping the tail of what it printed", async () => {
    const record = await withHook("echo 'disk full' && exit 3");
    const checkpoint = await checkpointSandbox(world.deps, record.id, "Manual", anActor("alice"));
    expect([checkpoint.result, checkpoint.hookOutputTail, checkpoint.markerWritten]).toEqual(["Failed", "disk full\n", false]);
  });

  it("times out when the hook outlives its grace period", async () => {
    const record = await withHook("sleep 3600", { checkpointGracePeriodSeconds: 1, terminationGracePeriodSeconds: 30 });
    expect((await checkpointSandbox(world.deps, record.id, "Manual", anActor("alice"))).result).toBe("TimedOut");
  });

  it("says the hook ran only when there is one", async () => {
    const record = await world.readySandbox({ name: `ckpt-${++counter}` });
    await checkpointSandbox(world.deps, record.id, "Manual", anActor("alice"));
    const succeeded = (await world.deps.store.timeline.listForSandbox(record.id, { limit: 100 })).find((event) => event.reason === "CheckpointSucceeded");
    expect(succeeded?.message).toMatch(/: no hook is set; the workspace was flushed and the marker written$/);
  });

  it("is told on the timeline from start to end", async () => {
    const record = await withHook("true");
    await checkpointSandbox(world.deps, record.id, "Manual", anActor("alice"));
    const events = await world.deps.store.timeline.listForSandbox(record.id, { limit: 100 });
    expect(events.filter((event) => event.type === "Checkpoint").map((event) => event.reason)).toEqual(["CheckpointStarted", "CheckpointSucceeded"]);
  });

  it("is listed with the sandbox's checkpoints", async () => {
    const record = await withHook("true");
    const checkpoint = await checkpointSandbox(world.deps, record.id, "Manual", anActor("alice"));
    expect((await world.deps.store.checkpoints.listCheckpoints(record.id)).map((one) => one.id)).toEqual([checkpoint.id]);
  });
});

describe("while a checkpoint runs", () => {
  let record: SandboxRecord;
  let running: Promise<unknown>;
  beforeAll(async () => {
    // A slow hook (simulated seconds run 200 times faster): long enough to look at the sandbox meanwhile.
    record = await withHook("sleep 400", { checkpointGracePeriodSeconds: 20, terminationGracePeriodSeconds: 30 });
    running = checkpointSandbox(world.deps, record.id, "Manual", anActor("alice"));
  });
  afterAll(() => running);

  it("the sandbox shows Checkpointing", async () => {
    await world.recordWhen(record.id, (now) => {
      if (now.phase !== "Checkpointing") throw new Error(`${now.phase}`);
    }, 5_000);
  });

  it("a new exec session is refused with the reason", async () => {
    await expect(execInSandbox(world.deps, record.id, ["true"], 5, anActor("alice"))).rejects.toThrow(/is checkpointing/);
  });

  it("a second checkpoint is refused", async () => {
    await expect(checkpointSandbox(world.deps, record.id, "Manual", anActor("alice"))).rejects.toBeInstanceOf(SandboxStateError);
  });
});

describe("a console that stopped mid-checkpoint", () => {
  it("has the checkpoint closed as Failed by the next one, and the timeline says why", async () => {
    const record = await world.readySandbox({ name: `ckpt-${++counter}` });
    const left = await world.deps.store.checkpoints.startCheckpoint({ sandboxId: record.id, trigger: "Manual", startedAt: new Date(), podUid: record.podUid });
    const next = new StatusReconciler({ connection: world.deps.connection, store: world.deps.store, sandboxApiVersion: "v1beta1", labelPrefix: "berth.dev", inFlight: new OperationsInFlight(), live: new LiveSandboxes() });
    await next.start();
    next.stop();
    const [closed] = await world.deps.store.checkpoints.listCheckpoints(record.id);
    expect([closed?.id, closed?.result, (await reasonsOf(record)).includes("CheckpointInterrupted")]).toEqual([left.id, "Failed", true]);
  });
});

describe("a checkpoint that also snapshots the workspace", () => {
  it("says at once why node-local storage took no snapshot", async () => {
    const record = await world.readySandbox({ name: `ckpt-${++counter}`, disruptionPolicy: { snapshotOnCheckpoint: true } });
    const checkpoint = await checkpointSandbox(world.deps, record.id, "Manual", anActor("alice"));
    expect([checkpoint.result, checkpoint.snapshotReady, checkpoint.snapshotError]).toEqual(["Succeeded", false, expect.stringContaining("non-CSI")]);
  });

  describe("on storage with a CSI snapshotter", () => {
    let portable: ReconciledWorld;
    beforeAll(async () => {
      portable = await startReconciledWorld({ defaultStorageClass: "portable" });
    }, 30_000);
    afterAll(() => portable?.stop());

    it("has a ready VolumeSnapshot named on the checkpoint", async () => {
      const record = await portable.readySandbox({ name: "snapshotted", disruptionPolicy: { snapshotOnCheckpoint: true } });
      const checkpoint = await checkpointSandbox(portable.deps, record.id, "Manual", anActor("alice"));
      expect([checkpoint.snapshotName, checkpoint.snapshotReady, checkpoint.snapshotError]).toEqual([`snapshotted-checkpoint-${checkpoint.id.slice(0, 8)}`, true, null]);
    });
  });
});
