import { describe, expect, it } from "vitest";
import type { DurableState } from "./durable-state.ts";
import type { SandboxPhase } from "./sandbox-status.ts";
import type { TimelineEvent } from "./timeline.ts";
import type { DisruptionRecord, RecoveryRecord } from "./disruption-history.ts";
import { describeTimeline, layoutTimeline } from "./timeline-lanes.ts";

// Timelines shaped the way the reconciler and the lifecycle actions write them, built from a few
// helpers; each case says what the chart must show.

const base = Date.parse("2026-11-30T12:00:00Z");
/** Seconds after the start of the story. */
const t = (seconds: number) => new Date(base + seconds * 1000);
const now = t(600);

let nextId = 1;
function anEvent(seconds: number, type: TimelineEvent["type"], reason: string, data: Record<string, unknown> = {}): TimelineEvent {
  const id = String(nextId++);
  return { id, sandboxId: "5b9f3c2e-8d4a-4c1e-9f7a-2b6d8e0c1a3f", type, reason, message: `${reason} message`, occurredAt: t(seconds), recordedAt: t(seconds), data };
}

/** A phase change as the reconciler tells it: the pod it is about and its node. */
const phase = (seconds: number, phase: SandboxPhase, podUid: string | null, nodeName: string | null = null) =>
  anEvent(seconds, "Lifecycle", phase, { phase, podUid, nodeName, reason: null, previousPhase: "Pending" });

/** The cluster's clock runs ahead of Berth's here, as with a simulated clock: positions must not use it. */
const clusterTime = (seconds: number) => t(seconds + 3600).toISOString();

function aDisruption(seconds: number, from: { podUid: string; nodeName: string }, reason: DisruptionRecord["reason"] = "PodDeleted"): DisruptionRecord {
  return { reason, message: `${reason} happened`, at: clusterTime(seconds), podUid: from.podUid, nodeName: from.nodeName, checkpointTaken: false };
}

function aRecovery(disruption: DisruptionRecord, overrides: Partial<RecoveryRecord> = {}): RecoveryRecord {
  return { reason: "ReplacementPending", message: "waiting", startedAt: disruption.at, recoveredAt: null, durationMs: null, replacementPodUid: null, replacementNodeName: null, ...overrides };
}

const disrupted = (seconds: number, disruption: DisruptionRecord, podUid: string | null = disruption.podUid) =>
  anEvent(seconds, "Disruption", "Disrupted", { phase: "Disrupted", podUid, nodeName: disruption.nodeName, disruption, recovery: aRecovery(disruption) });

const recovering = (seconds: number, disruption: DisruptionRecord, to: { podUid: string; nodeName: string | null }) =>
  anEvent(seconds, "Recovery", "Recovering", { phase: "Recovering", ...to, disruption, recovery: aRecovery(disruption, { reason: "ReplacementStarting", replacementPodUid: to.podUid, replacementNodeName: to.nodeName }) });

const recovered = (seconds: number, disruption: DisruptionRecord, to: { podUid: string; nodeName: string }, durationMs = 37_000) =>
  anEvent(seconds, "Recovery", "Recovered", {
    phase: "Ready",
    ...to,
    disruption,
    recovery: aRecovery(disruption, { reason: "Recovered", recoveredAt: clusterTime(seconds), durationMs, replacementPodUid: to.podUid, replacementNodeName: to.nodeName }),
  });

const checkpoint = (seconds: number, checkpointId: string, reason: string) => anEvent(seconds, "Checkpoint", reason, { checkpointId, trigger: "Manual" });

const aVerdict = (podUid: string, verdict: DurableState["verdict"] = "restored"): DurableState => ({ verdict, why: "marker read back", podUid, checkedAt: t(200).toISOString(), neverSurvives: [] });

const first = { podUid: "pod-a", nodeName: "worker-1" };
const second = { podUid: "pod-b", nodeName: "worker-2" };

/** Created, scheduled on worker-1, Ready at 10 s. */
const startedOnWorker1 = () => [anEvent(0, "Lifecycle", "Created"), phase(2, "Provisioning", "pod-a"), phase(5, "Provisioning", "pod-a", "worker-1"), phase(10, "Ready", "pod-a", "worker-1")];

/** Running on worker-1, its pod deleted at 100 s, Ready again on worker-2 at 140 s. */
function replacedOnWorker2() {
  const disruption = aDisruption(100, first);
  return {
    disruption,
    events: [...startedOnWorker1(), disrupted(100, disruption), disrupted(110, disruption, null), recovering(120, disruption, { podUid: "pod-b", nodeName: null }), recovered(140, disruption, second)],
  };
}

describe("lanes: one per pod instance", () => {
  it.each([
    { story: "nothing has run yet", events: () => [anEvent(0, "Lifecycle", "Created")], lanes: [] },
    { story: "one pod that still runs", events: startedOnWorker1, lanes: [{ podUid: "pod-a", nodeName: "worker-1", start: t(2), readyAt: t(10), end: null }] },
    {
      story: "a pod replaced after a disruption",
      events: () => replacedOnWorker2().events,
      lanes: [
        { podUid: "pod-a", nodeName: "worker-1", start: t(2), readyAt: t(10), end: t(110) },
        { podUid: "pod-b", nodeName: "worker-2", start: t(120), readyAt: t(140), end: null },
      ],
    },
    {
      story: "a stop ends the pod; the start brings a new one",
      events: () => [...startedOnWorker1(), phase(50, "Stopping", "pod-a", "worker-1"), phase(55, "Stopped", null), phase(70, "Starting", "pod-c", "worker-3"), phase(75, "Ready", "pod-c", "worker-3")],
      lanes: [
        { podUid: "pod-a", nodeName: "worker-1", start: t(2), readyAt: t(10), end: t(55) },
        { podUid: "pod-c", nodeName: "worker-3", start: t(70), readyAt: t(75), end: null },
      ],
    },
    {
      story: "deleting the sandbox ends its pod",
      events: () => [...startedOnWorker1(), anEvent(90, "Lifecycle", "Deleted", { removedClaims: [], keptClaims: [] })],
      lanes: [{ podUid: "pod-a", nodeName: "worker-1", start: t(2), readyAt: t(10), end: t(90) }],
    },
  ])("$story", ({ events, lanes }) => {
    expect(layoutTimeline({ events: events(), now }).lanes).toEqual(lanes);
  });

  it("lays out events handed over in any order", () => {
    const events = replacedOnWorker2().events;
    expect(layoutTimeline({ events: [...events].reverse(), now }).lanes).toEqual(layoutTimeline({ events, now }).lanes);
  });
});

describe("disruption spans: from the disruption to the Ready replacement", () => {
  it("spans a recovered disruption by Berth's clock, from pod to replacement", () => {
    const [span] = layoutTimeline({ events: replacedOnWorker2().events, now }).spans;
    expect(span).toMatchObject({ reason: "PodDeleted", start: t(100), end: t(140), outcome: "recovered", fromNodeName: "worker-1", toPodUid: "pod-b", toNodeName: "worker-2", durationMs: 37_000 });
  });

  it.each([
    {
      story: "a recovery still under way stays open",
      events: () => {
        const disruption = aDisruption(100, first);
        return [...startedOnWorker1(), disrupted(100, disruption), recovering(120, disruption, { podUid: "pod-b", nodeName: null })];
      },
      expected: { end: null, outcome: "recovering" },
    },
    {
      story: "a stop before the recovery closes it as stopped",
      events: () => [...startedOnWorker1(), disrupted(100, aDisruption(100, first)), phase(130, "Stopped", null)],
      expected: { end: t(130), outcome: "stopped" },
    },
    {
      story: "deleting the sandbox closes it as ended",
      events: () => [...startedOnWorker1(), disrupted(100, aDisruption(100, first)), anEvent(130, "Lifecycle", "Deleted")],
      expected: { end: t(130), outcome: "ended" },
    },
  ])("$story", ({ events, expected }) => {
    expect(layoutTimeline({ events: events(), now }).spans[0]).toMatchObject(expected);
  });

  it("tells each disruption once however many events repeat it", () => {
    expect(layoutTimeline({ events: replacedOnWorker2().events, now }).spans).toHaveLength(1);
  });

  it("keeps two disruptions apart", () => {
    const { events } = replacedOnWorker2();
    const again = aDisruption(300, second, "NodeDrained");
    const spans = layoutTimeline({ events: [...events, disrupted(300, again), recovered(330, again, { podUid: "pod-c", nodeName: "worker-3" })], now }).spans;
    expect(spans.map((span) => [span.reason, span.toNodeName])).toEqual([["PodDeleted", "worker-2"], ["NodeDrained", "worker-3"]]);
  });

  it.each([
    { story: "shows the verdict read in the replacement", verdict: aVerdict("pod-b"), expected: "restored" },
    { story: "ignores a verdict about another pod", verdict: aVerdict("pod-z"), expected: undefined },
    { story: "shows no verdict before one is known", verdict: null, expected: undefined },
  ])("$story", ({ verdict, expected }) => {
    expect(layoutTimeline({ events: replacedOnWorker2().events, now, durableState: verdict }).spans[0]?.verdict?.verdict).toBe(expected);
  });

  it("keeps each recovery's own verdict from the timeline's verdict events", () => {
    const { events } = replacedOnWorker2();
    const again = aDisruption(300, second, "NodeDrained");
    const verdictEvent = (seconds: number, verdict: DurableState) => anEvent(seconds, "DurableState", "DurableStateRestored", verdict);
    const story = [...events, verdictEvent(80, aVerdict("pod-b")), disrupted(300, again), recovered(330, again, { podUid: "pod-c", nodeName: "worker-3" }), verdictEvent(340, aVerdict("pod-c", "lost"))];
    expect(layoutTimeline({ events: story, now }).spans.map((span) => span.verdict?.verdict)).toEqual(["restored", "lost"]);
  });
});

describe("markers", () => {
  it("puts one checkpoint marker where the checkpoint ended, on the pod that ran then", () => {
    const events = [...startedOnWorker1(), checkpoint(30, "cp-1", "CheckpointStarted"), phase(30, "Checkpointing", "pod-a", "worker-1"), checkpoint(32, "cp-1", "CheckpointSucceeded"), checkpoint(33, "cp-1", "SnapshotReady")];
    expect(layoutTimeline({ events, now }).markers).toEqual([expect.objectContaining({ kind: "checkpoint", at: t(32), reason: "CheckpointSucceeded", laneIndex: 0 })]);
  });

  it("shows a running checkpoint where it started", () => {
    expect(layoutTimeline({ events: [...startedOnWorker1(), checkpoint(30, "cp-1", "CheckpointStarted")], now }).markers[0]).toMatchObject({ at: t(30), reason: "CheckpointStarted" });
  });

  it.each([
    { kind: "protection", event: () => anEvent(150, "Protection", "DrainBlocked", { budgetName: "box-disruption-budget", nodeName: "worker-2" }) },
    { kind: "maintenance", event: () => anEvent(150, "Maintenance", "MaintenanceCheckpointed", { runId: "run-1", node: "worker-2", step: "Checkpointed" }) },
  ])("marks a $kind event on the lane running at the time", ({ kind, event }) => {
    expect(layoutTimeline({ events: [...replacedOnWorker2().events, event()], now }).markers).toEqual([expect.objectContaining({ kind, at: t(150), laneIndex: 1 })]);
  });

  it("places a marker on no lane when no pod ran then", () => {
    expect(layoutTimeline({ events: [anEvent(0, "Lifecycle", "Created"), anEvent(1, "Protection", "DrainUnblocked")], now }).markers[0]?.laneIndex).toBeNull();
  });
});

describe("the time range", () => {
  it.each([
    { story: "runs from the first event to now while the sandbox lives", events: () => replacedOnWorker2().events, range: [t(0), now], ended: false },
    { story: "stops at the delete once the sandbox is gone", events: () => [...startedOnWorker1(), anEvent(90, "Lifecycle", "Deleted")], range: [t(0), t(90)], ended: true },
    { story: "is just now for an empty timeline", events: () => [], range: [now, now], ended: false },
  ])("$story", ({ events, range, ended }) => {
    const layout = layoutTimeline({ events: events(), now });
    expect([layout.start, layout.end, layout.ended]).toEqual([...range, ended]);
  });
});

describe("the chart's summary", () => {
  it("says how many pods ran where, what disrupted them and how it ended", () => {
    const layout = layoutTimeline({ events: [...replacedOnWorker2().events, checkpoint(200, "cp-1", "CheckpointSucceeded")], now, durableState: aVerdict("pod-b") });
    expect(describeTimeline(layout)).toBe("2 pod instances (on worker-1, worker-2); 1 disruption: PodDeleted on worker-1, recovered on worker-2 in 37 s, durable state restored; 1 checkpoint.");
  });

  it("says plainly when nothing has happened", () => {
    expect(describeTimeline(layoutTimeline({ events: [], now }))).toBe("No pod has run yet, and nothing has happened to the sandbox.");
  });
});
