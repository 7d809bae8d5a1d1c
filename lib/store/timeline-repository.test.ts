import { aDisruption, aRecovery } from "../disruption/test-fixtures.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NewTimelineEvent } from "../domain/timeline.ts";
import type { Store } from "./open-store.ts";
import { openTestStore, testStoreKind } from "./test-databases.ts";
import { aNewSandbox } from "./test-fixtures.ts";

let store: Store;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ store, cleanup } = await openTestStore()));
afterAll(() => cleanup());

function anEvent(sandboxId: string | null, overrides: Partial<NewTimelineEvent> = {}): NewTimelineEvent {
  return { sandboxId, type: "Disruption", reason: "PodEvicted", message: "evicted by drain", occurredAt: new Date("2026-11-30T10:00:00.123Z"), ...overrides };
}

async function aSandboxId() {
  return (await store.sandboxes.recordSandbox(aNewSandbox())).id;
}

describe(`the timeline (${testStoreKind})`, () => {
  it("round-trips an event with its data and millisecond time", async () => {
    const sandboxId = await aSandboxId();
    const event = anEvent(sandboxId, { data: { node: "worker-1", podUid: "u-1", nested: { ok: true } } });
    const appended = await store.timeline.appendEvent(event);
    const [read] = await store.timeline.listForSandbox(sandboxId, { limit: 10 });
    expect(read).toEqual({ ...event, id: appended.id, recordedAt: appended.recordedAt });
  });

  it("gives each event a larger id than the one before", async () => {
    const sandboxId = await aSandboxId();
    const first = await store.timeline.appendEvent(anEvent(sandboxId));
    const second = await store.timeline.appendEvent(anEvent(sandboxId));
    expect(BigInt(second.id) > BigInt(first.id)).toBe(true);
  });

  it("lists a sandbox's events oldest first", async () => {
    const sandboxId = await aSandboxId();
    for (const reason of ["Created", "PodScheduled", "Ready"]) {
      await store.timeline.appendEvent(anEvent(sandboxId, { type: "Lifecycle", reason }));
    }
    const events = await store.timeline.listForSandbox(sandboxId, { limit: 10 });
    expect(events.map((event) => event.reason)).toEqual(["Created", "PodScheduled", "Ready"]);
  });

  it("lists a whole timeline longer than one page", async () => {
    const sandboxId = await aSandboxId();
    for (const reason of ["Created", "PodScheduled", "Ready", "Disrupted", "Recovered"]) {
      await store.timeline.appendEvent(anEvent(sandboxId, { type: "Lifecycle", reason }));
    }
    const events = await store.timeline.listAllForSandbox(sandboxId, 2);
    expect(events.map((event) => event.reason)).toEqual(["Created", "PodScheduled", "Ready", "Disrupted", "Recovered"]);
  });

  it("resumes after the last event id a reader saw", async () => {
    const sandboxId = await aSandboxId();
    const seen = await store.timeline.appendEvent(anEvent(sandboxId, { reason: "Seen" }));
    await store.timeline.appendEvent(anEvent(sandboxId, { reason: "Missed" }));
    const missed = await store.timeline.listAfter({ after: seen.id, sandboxId, limit: 10 });
    expect(missed.map((event) => event.reason)).toEqual(["Missed"]);
  });

  it("keeps events that belong to no sandbox (node maintenance)", async () => {
    const before = await store.timeline.appendEvent(anEvent(null, { type: "Maintenance", reason: "DrainStarted" }));
    const after = await store.timeline.listAfter({ after: String(BigInt(before.id) - 1n), limit: 1 });
    expect(after[0]).toMatchObject({ sandboxId: null, reason: "DrainStarted" });
  });

  it("hands out ids in the order concurrent appends commit", async () => {
    const sandboxId = await aSandboxId();
    const appended = await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.timeline.appendEvent(anEvent(sandboxId, { reason: `Step${i}` }))),
    );
    const listed = await store.timeline.listForSandbox(sandboxId, { limit: 50 });
    expect(listed.map((event) => event.id)).toEqual(appended.map((event) => event.id).sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)));
  });

  it("refuses a reason that is not CamelCase", async () => {
    await expect(store.timeline.appendEvent(anEvent(null, { reason: "pod evicted" }))).rejects.toThrow(/CamelCase/);
  });
});

describe(`the disruption history (${testStoreKind})`, () => {
  it("counts a disruption told by several events once, with its recovery's duration", async () => {
    const sandboxId = await aSandboxId();
    const disruption = aDisruption({ reason: "NodeDrained" });
    await store.timeline.appendEvent(anEvent(sandboxId, { reason: "Disrupted", data: { disruption, recovery: null } }));
    await store.timeline.appendEvent(anEvent(sandboxId, { type: "Recovery", reason: "Recovering", data: { disruption, recovery: aRecovery({ reason: "Unschedulable" }) } }));
    await store.timeline.appendEvent(anEvent(sandboxId, { type: "Recovery", reason: "Recovered", data: { disruption, recovery: aRecovery({ reason: "Recovered", durationMs: 5_000 }) } }));
    const mine = (await store.timeline.disruptionHistory()).filter((one) => one.sandboxId === sandboxId);
    expect(mine.map(({ reason, durationMs }) => ({ reason, durationMs }))).toEqual([{ reason: "NodeDrained", durationMs: 5_000 }]);
  });
});
