import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { useTestStore, testStoreKind } from "./test-databases.ts";
import { aNewSandbox, aStatus } from "./test-fixtures.ts";
import { DeposedWriterError } from "./writer-term-repository.ts";

const database = useTestStore();
const now = new Date("2026-12-04T12:00:00.000Z");
/** A Lease of this test's own. */
const aLease = () => `berth-leader-${randomBytes(3).toString("hex")}`;

describe(`the writer's term (${testStoreKind})`, () => {
  it("is claimed by a new leader in a later term", async () => {
    const lease = aLease();
    const claims = [await database.store.writerTerms.claim({ lease, term: 1 }, "replica-a", now), await database.store.writerTerms.claim({ lease, term: 2 }, "replica-b", now)];
    expect(claims).toEqual([true, true]);
  });

  it("is not claimed back by a leader of an older term", async () => {
    const lease = aLease();
    await database.store.writerTerms.claim({ lease, term: 2 }, "replica-b", now);
    expect(await database.store.writerTerms.claim({ lease, term: 1 }, "replica-a", now)).toBe(false);
  });

  it("lets the leader of the newest term write a status", async () => {
    const lease = aLease();
    const record = await database.store.sandboxes.recordSandbox(aNewSandbox());
    await database.store.writerTerms.claim({ lease, term: 3 }, "replica-a", now);
    const saved = await database.store.sandboxes.saveStatus(record.id, aStatus({ message: "by the leader" }), { lease, term: 3 });
    expect(saved.message).toBe("by the leader");
  });

  it("refuses a status from a deposed leader, and keeps the one stored", async () => {
    const lease = aLease();
    const record = await database.store.sandboxes.recordSandbox(aNewSandbox());
    await database.store.writerTerms.claim({ lease, term: 3 }, "replica-a", now);
    await database.store.writerTerms.claim({ lease, term: 4 }, "replica-b", now);
    const refused = await database.store.sandboxes.saveStatus(record.id, aStatus({ message: "by the deposed leader" }), { lease, term: 3 }).catch((error: unknown) => error);
    expect({ refused: refused instanceof DeposedWriterError, stored: (await database.store.sandboxes.getSandbox(record.id))?.message }).toEqual({ refused: true, stored: null });
  });

  it("refuses a timeline event from a deposed leader, and appends nothing", async () => {
    const lease = aLease();
    const record = await database.store.sandboxes.recordSandbox(aNewSandbox());
    await database.store.writerTerms.claim({ lease, term: 5 }, "replica-b", now);
    const event = { sandboxId: record.id, type: "Lifecycle" as const, reason: "Ready", message: "twice?", occurredAt: now };
    await expect(database.store.timeline.appendEvent(event, { lease, term: 4 })).rejects.toThrow(DeposedWriterError);
    expect(await database.store.timeline.listForSandbox(record.id, { limit: 10 })).toEqual([]);
  });

  it("refuses to close a record for a deposed leader, and leaves it live", async () => {
    const lease = aLease();
    const record = await database.store.sandboxes.recordSandbox(aNewSandbox());
    await database.store.writerTerms.claim({ lease, term: 7 }, "replica-b", now);
    await expect(database.store.sandboxes.markDeleted(record.id, now, { reason: "DeletedOutsideBerth", message: "twice?" }, { lease, term: 6 })).rejects.toThrow(DeposedWriterError);
    expect((await database.store.sandboxes.getSandbox(record.id))?.deletedAt).toBeNull();
  });

  it("refuses to record a found Sandbox for a deposed leader", async () => {
    const lease = aLease();
    const found = aNewSandbox({ origin: "cluster" });
    await database.store.writerTerms.claim({ lease, term: 9 }, "replica-b", now);
    await expect(database.store.sandboxes.recordSandbox(found, { lease, term: 8 })).rejects.toThrow(DeposedWriterError);
    expect(await database.store.sandboxes.findLiveSandbox(found.namespace, found.name)).toBeNull();
  });

  it("refuses to close an interrupted checkpoint for a deposed leader", async () => {
    const lease = aLease();
    const record = await database.store.sandboxes.recordSandbox(aNewSandbox());
    const running = await database.store.checkpoints.startCheckpoint({ sandboxId: record.id, trigger: "Manual", startedAt: now, podUid: null });
    await database.store.writerTerms.claim({ lease, term: 11 }, "replica-b", now);
    await expect(database.store.checkpoints.failInterrupted(now, new Set(), { lease, term: 10 })).rejects.toThrow(DeposedWriterError);
    expect((await database.store.checkpoints.listCheckpoints(record.id)).map((one) => [one.id, one.result])).toEqual([[running.id, "Running"]]);
  });
});
