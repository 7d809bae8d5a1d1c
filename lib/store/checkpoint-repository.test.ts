import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "./open-store.ts";
import { openTestStore, testStoreKind } from "./test-databases.ts";
import { aNewSandbox } from "./test-fixtures.ts";

let store: Store;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ store, cleanup } = await openTestStore()));
afterAll(() => cleanup());

const startedAt = new Date("2026-11-30T10:00:00.000Z");
const after = (ms: number) => new Date(startedAt.getTime() + ms);

async function aRunningCheckpoint() {
  const sandbox = await store.sandboxes.recordSandbox(aNewSandbox());
  return store.checkpoints.startCheckpoint({ sandboxId: sandbox.id, trigger: "Maintenance", startedAt, podUid: "pod-1" });
}

describe(`checkpoints (${testStoreKind})`, () => {
  it("start Running with nothing finished", async () => {
    const checkpoint = await aRunningCheckpoint();
    expect(checkpoint).toMatchObject({ result: "Running", finishedAt: null, durationMs: null, markerWritten: false });
  });

  it("record their result, duration and the tail of the hook's output", async () => {
    const checkpoint = await aRunningCheckpoint();
    const finished = await store.checkpoints.finishCheckpoint(
      checkpoint.id,
      { result: "Succeeded", hookOutputTail: "flushed 3 files\n", markerWritten: true },
      after(1_250),
    );
    expect(finished).toMatchObject({ result: "Succeeded", durationMs: 1_250, hookOutputTail: "flushed 3 files\n", markerWritten: true });
  });

  it("record a snapshot's readiness and error", async () => {
    const checkpoint = await aRunningCheckpoint();
    const withSnapshot = await store.checkpoints.recordSnapshot(checkpoint.id, {
      name: "box-ckpt-1",
      ready: false,
      error: "Failed to create snapshot: the CSI driver does not support snapshots",
    });
    expect(withSnapshot).toMatchObject({ snapshotName: "box-ckpt-1", snapshotReady: false, snapshotError: expect.stringContaining("CSI") });
  });

  it("list a sandbox's checkpoints newest first", async () => {
    const sandbox = await store.sandboxes.recordSandbox(aNewSandbox());
    await store.checkpoints.startCheckpoint({ sandboxId: sandbox.id, trigger: "Manual", startedAt, podUid: "pod-1" });
    await store.checkpoints.startCheckpoint({ sandboxId: sandbox.id, trigger: "Maintenance", startedAt: after(60_000), podUid: "pod-1" });
    const listed = await store.checkpoints.listCheckpoints(sandbox.id);
    expect(listed.map((checkpoint) => checkpoint.trigger)).toEqual(["Maintenance", "Manual"]);
  });
});

describe(`a sandbox's last successful checkpoint (${testStoreKind})`, () => {
  it("is the one that finished last among those that succeeded, with the pod it ran in", async () => {
    const sandbox = await store.sandboxes.recordSandbox(aNewSandbox());
    const older = await store.checkpoints.startCheckpoint({ sandboxId: sandbox.id, trigger: "Manual", startedAt, podUid: "pod-1" });
    await store.checkpoints.finishCheckpoint(older.id, { result: "Succeeded", markerWritten: true }, after(1_000));
    const newer = await store.checkpoints.startCheckpoint({ sandboxId: sandbox.id, trigger: "Maintenance", startedAt: after(60_000), podUid: "pod-2" });
    await store.checkpoints.finishCheckpoint(newer.id, { result: "Succeeded", markerWritten: true }, after(61_000));
    const failed = await store.checkpoints.startCheckpoint({ sandboxId: sandbox.id, trigger: "Manual", startedAt: after(120_000), podUid: "pod-3" });
    await store.checkpoints.finishCheckpoint(failed.id, { result: "Failed", markerWritten: false }, after(121_000));
    expect(await store.checkpoints.lastSucceeded(sandbox.id)).toEqual({ podUid: "pod-2", finishedAt: after(61_000) });
  });

  it("is none for a sandbox never checkpointed", async () => {
    const sandbox = await store.sandboxes.recordSandbox(aNewSandbox());
    expect(await store.checkpoints.lastSucceeded(sandbox.id)).toBeNull();
  });
});

describe(`checkpoints a stopped console left behind (${testStoreKind})`, () => {
  it("are closed as Failed, saying they were interrupted", async () => {
    const left = await aRunningCheckpoint();
    await store.checkpoints.failInterrupted(after(60_000));
    const [closed] = await store.checkpoints.listCheckpoints(left.sandboxId);
    expect([closed?.result, closed?.hookOutputTail]).toEqual(["Failed", "interrupted: the console stopped while this checkpoint was running"]);
  });

  it("leave finished checkpoints as they were", async () => {
    const done = await aRunningCheckpoint();
    await store.checkpoints.finishCheckpoint(done.id, { result: "Succeeded", markerWritten: true }, after(1_000));
    await store.checkpoints.failInterrupted(after(60_000));
    expect((await store.checkpoints.listCheckpoints(done.sandboxId))[0]?.result).toBe("Succeeded");
  });
});

describe(`checkpoint outcomes for the metrics (${testStoreKind})`, () => {
  it("include finished checkpoints with their durations and leave running ones out", async () => {
    const done = await aRunningCheckpoint();
    await store.checkpoints.finishCheckpoint(done.id, { result: "TimedOut", markerWritten: false }, after(2_500));
    await aRunningCheckpoint();
    const outcomes = await store.checkpoints.finishedOutcomes();
    expect([outcomes.some((one) => one.result === "TimedOut" && one.durationMs === 2_500), outcomes.some((one) => one.result === "Running")]).toEqual([true, false]);
  });
});
