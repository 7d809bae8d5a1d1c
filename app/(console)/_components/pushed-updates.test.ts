import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { SandboxRecord } from "@/lib/domain/sandbox-record.ts";
import type { TimelineEvent } from "@/lib/domain/timeline.ts";
import { aStatus } from "@/lib/store/test-fixtures.ts";
import { sandboxRow } from "../sandboxes/_components/sandbox-rows.ts";
import { recordWith, rowsWith, timelineWith } from "./pushed-updates.ts";

// What a push from the event stream does to what the browser holds.

function aRecord(minute: number, overrides: Partial<SandboxRecord> = {}): SandboxRecord {
  const at = new Date(Date.UTC(2026, 11, 1, 0, minute));
  return { ...aStatus(), id: randomUUID(), name: `box-${minute}`, namespace: "default", spec: {}, workspaceBackend: "pvc", origin: "berth", provisionedAt: at, createdAt: at, updatedAt: at, deletedAt: null, ...overrides };
}

function anEvent(id: number): TimelineEvent {
  const at = new Date(Date.UTC(2026, 11, 1, 0, 0, id));
  return { id: String(id), sandboxId: null, type: "Lifecycle", reason: "Ready", message: `event ${id}`, occurredAt: at, recordedAt: at, data: {} };
}

const rowsOf = (...records: SandboxRecord[]) => records.map(sandboxRow);
const names = (rows: { name: string }[] | undefined) => rows?.map((row) => row.name);
const ids = (events: TimelineEvent[] | undefined) => events?.map((event) => event.id);

describe("a pushed sandbox", () => {
  it("replaces its row with what it now is", () => {
    const record = aRecord(1, { phase: "Ready" });
    const rows = rowsWith(rowsOf(record), { id: record.id, record: { ...record, phase: "Recovering" } });
    expect(rows?.map((row) => row.phase)).toEqual(["Recovering"]);
  });

  it("does not replace a newer row, read after it was sent", () => {
    const record = aRecord(1, { phase: "Ready" });
    const older = { ...record, phase: "Provisioning" as const, updatedAt: new Date(record.updatedAt.getTime() - 1) };
    expect(rowsWith(rowsOf(record), { id: record.id, record: older })?.map((row) => row.phase)).toEqual(["Ready"]);
  });

  it("is added where it sorts, newest first, when the list did not have it", () => {
    const [oldest, newest] = [aRecord(1), aRecord(3)];
    const made = aRecord(2);
    expect(names(rowsWith(rowsOf(newest, oldest), { id: made.id, record: made }))).toEqual(["box-3", "box-2", "box-1"]);
  });

  it("leaves the list once it is no longer live", () => {
    const [kept, gone] = [aRecord(1), aRecord(2)];
    expect(names(rowsWith(rowsOf(gone, kept), { id: gone.id, record: null }))).toEqual(["box-1"]);
  });

  it("makes no list where none was held", () => {
    const record = aRecord(1);
    expect(rowsWith(undefined, { id: record.id, record })).toBeUndefined();
  });

  it("replaces a held record", () => {
    const record = aRecord(1, { phase: "Ready" });
    expect(recordWith(record, { id: record.id, record: { ...record, phase: "Stopped" } })?.phase).toBe("Stopped");
  });

  it("does not replace a newer held record", () => {
    const record = aRecord(1, { phase: "Ready" });
    expect(recordWith(record, { id: record.id, record: { ...record, phase: "Provisioning", updatedAt: new Date(record.updatedAt.getTime() - 1) } })).toBe(record);
  });

  it("leaves a held record as it was once it is no longer live", () => {
    const record = aRecord(1, { phase: "Ready" });
    expect(recordWith(record, { id: record.id, record: null })).toBe(record);
  });

  it("makes no record where none was held", () => {
    const record = aRecord(1);
    expect(recordWith(undefined, { id: record.id, record })).toBeUndefined();
  });
});

describe("a pushed timeline event", () => {
  it("is appended to a held timeline", () => {
    expect(ids(timelineWith([anEvent(1), anEvent(2)], anEvent(3)))).toEqual(["1", "2", "3"]);
  });

  it("goes in id order when it arrives after a later one", () => {
    expect(ids(timelineWith([anEvent(1), anEvent(3)], anEvent(2)))).toEqual(["1", "2", "3"]);
  });

  it("is held once when it arrives again", () => {
    expect(ids(timelineWith([anEvent(1), anEvent(2)], anEvent(2)))).toEqual(["1", "2"]);
  });

  it("orders ids by number, not as text", () => {
    expect(ids(timelineWith([anEvent(9)], anEvent(10)))).toEqual(["9", "10"]);
  });

  it("makes no timeline where none was held", () => {
    expect(timelineWith(undefined, anEvent(1))).toBeUndefined();
  });
});
