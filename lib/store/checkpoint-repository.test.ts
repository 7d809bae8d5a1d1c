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
  return store.checkpoints.startCheckpoint({ sandboxId: sandbox.id, trigger: "Maintenance", startedAt });
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
    await store.checkpoints.startCheckpoint({ sandboxId: sandbox.id, trigger: "Manual", startedAt });
    await store.checkpoints.startCheckpoint({ sandboxId: sandbox.id, trigger: "Maintenance", startedAt: after(60_000) });
    const listed = await store.checkpoints.listCheckpoints(sandbox.id);
    expect(listed.map((checkpoint) => checkpoint.trigger)).toEqual(["Maintenance", "Manual"]);
  });
});
