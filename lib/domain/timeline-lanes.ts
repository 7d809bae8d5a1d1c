import { z } from "zod";
import { durableStateSchema, type DurableState } from "./durable-state.ts";
import { sandboxPhaseSchema } from "./sandbox-status.ts";
import type { TimelineEvent } from "./timeline.ts";

// A sandbox's stored timeline laid out as a swimlane chart: one lane per pod instance (its uid),
// disruptions as spans from the moment the sandbox stopped serving to its Ready replacement, and
// checkpoints, protection and maintenance as markers. Pure, so every shape of history is a
// table test; the chart only draws what this returns.
//
// Positions use each event's `occurredAt` (Berth's clock). The disruption and recovery records
// carry the cluster's own times, which may run ahead of Berth's (a simulated clock, or skew):
// their measured duration is shown as told, never used to place anything.

export interface PodLane {
  podUid: string;
  /** The node it ran on, once scheduled. */
  nodeName: string | null;
  /** First seen: the pod exists from here (starting until `readyAt`). */
  start: Date;
  readyAt: Date | null;
  /** Gone (replaced, stopped, deleted); null while it still runs. */
  end: Date | null;
}

export type SpanOutcome = "recovering" | "recovered" | "stopped" | "ended";

export interface DisruptionSpan {
  key: string;
  reason: string;
  message: string;
  start: Date;
  /** The Ready replacement (or the stop, or the sandbox's end); null while the recovery runs. */
  end: Date | null;
  outcome: SpanOutcome;
  fromPodUid: string | null;
  fromNodeName: string | null;
  toPodUid: string | null;
  toNodeName: string | null;
  /** Measured by the cluster's clock, from the disruption to the Ready replacement. */
  durationMs: number | null;
  /** Whether the workspace came back, once the replacement has been checked. */
  verdict: DurableState | null;
}

export type MarkerKind = "checkpoint" | "protection" | "maintenance";

export interface TimelineMarker {
  kind: MarkerKind;
  /** The event that placed it (for a checkpoint, its last one). */
  eventId: string;
  at: Date;
  reason: string;
  message: string;
  /** The lane of the pod it happened to; null when no pod ran then. */
  laneIndex: number | null;
}

export interface TimelineLayout {
  start: Date;
  end: Date;
  /** The sandbox is gone: nothing is open any more. */
  ended: boolean;
  lanes: PodLane[];
  spans: DisruptionSpan[];
  markers: TimelineMarker[];
}

/** Lifecycle reasons after which the sandbox has no pod and never will again. */
const SANDBOX_END_REASONS = new Set(["Deleted", "DeletedOutsideBerth", "CreateInterrupted"]);
const CHECKPOINT_END_REASONS = new Set(["CheckpointSucceeded", "CheckpointFailed", "CheckpointTimedOut", "CheckpointInterrupted"]);

/** What a phase-change event says about the pod (the reconciler writes `podUid` on every one). */
const podFactsSchema = z.object({
  podUid: z.string().nullable(),
  nodeName: z.string().nullable().optional(),
  phase: sandboxPhaseSchema.optional(),
});

function byTime(a: TimelineEvent, b: TimelineEvent): number {
  return a.occurredAt.getTime() - b.occurredAt.getTime() || Number(BigInt(a.id) - BigInt(b.id));
}

class LaneBook {
  readonly lanes: PodLane[] = [];
  private current: PodLane | null = null;

  see(facts: z.infer<typeof podFactsSchema>, at: Date): void {
    if (this.current && this.current.podUid !== facts.podUid) this.close(at);
    if (facts.podUid === null) return;
    let lane = this.current ?? this.lanes.find((one) => one.podUid === facts.podUid);
    if (!lane) {
      lane = { podUid: facts.podUid, nodeName: null, start: at, readyAt: null, end: null };
      this.lanes.push(lane);
    }
    // Seen again after it was closed (a Failed pod the reconciler still reports): it was there all along.
    lane.end = null;
    this.current = lane;
    if (facts.nodeName) lane.nodeName = facts.nodeName;
    if (facts.phase === "Ready" && !lane.readyAt) lane.readyAt = at;
  }

  close(at: Date): void {
    if (this.current) this.current.end = at;
    this.current = null;
  }

  /** The lane of that pod, else the one running at that moment (the latest to start). */
  indexAt(at: Date, podUid: string | null): number | null {
    const own = podUid ? this.lanes.findIndex((lane) => lane.podUid === podUid) : -1;
    if (own >= 0) return own;
    for (let index = this.lanes.length - 1; index >= 0; index -= 1) {
      const lane = this.lanes[index]!;
      if (lane.start <= at && (lane.end === null || at <= lane.end)) return index;
    }
    return null;
  }
}

class SpanBook {
  readonly spans: DisruptionSpan[] = [];

  see(event: Extract<TimelineEvent, { type: "Disruption" | "Recovery" }>): void {
    const { disruption, recovery } = event.data;
    if (!disruption) return;
    const key = `${disruption.at}|${disruption.podUid ?? ""}`;
    let span = this.spans.find((one) => one.key === key);
    if (!span) {
      span = {
        key,
        reason: disruption.reason,
        message: disruption.message,
        start: event.occurredAt,
        end: null,
        outcome: "recovering",
        fromPodUid: disruption.podUid,
        fromNodeName: disruption.nodeName,
        toPodUid: null,
        toNodeName: null,
        durationMs: null,
        verdict: null,
      };
      this.spans.push(span);
    }
    if (!recovery || span.end) return;
    span.toPodUid = recovery.replacementPodUid ?? span.toPodUid;
    span.toNodeName = recovery.replacementNodeName ?? span.toNodeName;
    span.durationMs = recovery.durationMs;
    if (recovery.reason === "Recovered") Object.assign(span, { end: event.occurredAt, outcome: "recovered" });
    if (recovery.reason === "Stopped") Object.assign(span, { end: event.occurredAt, outcome: "stopped" });
  }

  closeOpen(at: Date, outcome: SpanOutcome): void {
    for (const span of this.spans) if (!span.end) Object.assign(span, { end: at, outcome });
  }
}

/**
 * Lanes, spans and markers for a timeline (any order; laid out oldest first). `now` closes
 * nothing: open lanes and spans stay open (end null) and the chart draws them up to `now`.
 * `durableState` is the sandbox's latest verdict (its status details): it belongs to the
 * recovery whose replacement it was read in.
 */
export function layoutTimeline(input: { events: readonly TimelineEvent[]; now: Date; durableState?: DurableState | null }): TimelineLayout {
  const events = [...input.events].sort(byTime);
  const lanes = new LaneBook();
  const spans = new SpanBook();
  const placed: { event: TimelineEvent; kind: MarkerKind }[] = [];
  const checkpoints = new Map<string, { event: TimelineEvent; kind: MarkerKind }>();
  let endedAt: Date | null = null;

  for (const event of events) {
    const at = event.occurredAt;
    const facts = podFactsSchema.safeParse(event.data);
    if (event.type === "Lifecycle" && SANDBOX_END_REASONS.has(event.reason)) {
      lanes.close(at);
      spans.closeOpen(at, "ended");
      endedAt = at;
    } else if (facts.success) {
      lanes.see(facts.data, at);
      if (facts.data.phase === "Stopped") spans.closeOpen(at, "stopped");
    }
    if (event.type === "Disruption" || event.type === "Recovery") spans.see(event);
    if (event.type === "Protection" || event.type === "Maintenance") placed.push({ event, kind: event.type === "Protection" ? "protection" : "maintenance" });
    if (event.type === "Checkpoint") {
      const checkpointId = event.data.checkpointId;
      if (!checkpointId) continue;
      // One marker per checkpoint: where it ended, or where it started while it still runs.
      const known = checkpoints.get(checkpointId);
      if (!known) {
        const entry = { event, kind: "checkpoint" as const };
        checkpoints.set(checkpointId, entry);
        placed.push(entry);
      } else if (CHECKPOINT_END_REASONS.has(event.reason)) {
        known.event = event;
      }
    }
  }

  // Each verdict belongs to the recovery whose replacement pod it was read in.
  const verdicts = new Map<string, DurableState>();
  if (input.durableState) verdicts.set(input.durableState.podUid, input.durableState);
  for (const event of events) {
    const verdict = event.type === "DurableState" ? durableStateSchema.safeParse(event.data) : null;
    if (verdict?.success) verdicts.set(verdict.data.podUid, verdict.data);
  }
  for (const span of spans.spans) {
    const verdict = span.toPodUid ? verdicts.get(span.toPodUid) : undefined;
    if (verdict && span.outcome === "recovered") span.verdict = verdict;
  }
  const markers = placed.map(({ event, kind }): TimelineMarker => {
    const podUid = typeof event.data.podUid === "string" ? event.data.podUid : null;
    return { kind, eventId: event.id, at: event.occurredAt, reason: event.reason, message: event.message, laneIndex: lanes.indexAt(event.occurredAt, podUid) };
  });
  const start = events[0]?.occurredAt ?? input.now;
  const last = events.at(-1)?.occurredAt ?? start;
  const end = endedAt ?? new Date(Math.max(input.now.getTime(), last.getTime()));
  return { start, end, ended: endedAt !== null, lanes: lanes.lanes, spans: spans.spans, markers };
}

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

/** How a span ended, in a person's words: the chart's tooltips and its summary share it. */
export function describeSpan(span: DisruptionSpan): string {
  const where = span.fromNodeName ? ` on ${span.fromNodeName}` : "";
  const outcome =
    span.outcome === "recovered"
      ? `recovered${span.toNodeName ? ` on ${span.toNodeName}` : ""}${span.durationMs !== null ? ` in ${seconds(span.durationMs)}` : ""}${span.verdict ? `, durable state ${span.verdict.verdict}` : ""}`
      : span.outcome === "recovering"
        ? "still recovering"
        : span.outcome === "stopped"
          ? "stopped before it recovered"
          : "the sandbox was deleted before it recovered";
  return `${span.reason}${where}, ${outcome}`;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** One sentence for the chart's accessible name: what a person would read off it at a glance. */
export function describeTimeline(layout: TimelineLayout): string {
  if (layout.lanes.length === 0 && layout.spans.length === 0 && layout.markers.length === 0) return "No pod has run yet, and nothing has happened to the sandbox.";
  const nodes = [...new Set(layout.lanes.flatMap((lane) => (lane.nodeName ? [lane.nodeName] : [])))];
  const parts = [`${plural(layout.lanes.length, "pod instance", "pod instances")}${nodes.length > 0 ? ` (on ${nodes.join(", ")})` : ""}`];
  parts.push(layout.spans.length === 0 ? "no disruptions" : `${plural(layout.spans.length, "disruption", "disruptions")}: ${layout.spans.map(describeSpan).join("; ")}`);
  const count = (kind: MarkerKind) => layout.markers.filter((marker) => marker.kind === kind).length;
  parts.push(plural(count("checkpoint"), "checkpoint", "checkpoints"));
  if (count("protection") > 0) parts.push(plural(count("protection"), "protection change", "protection changes"));
  if (count("maintenance") > 0) parts.push(plural(count("maintenance"), "maintenance step", "maintenance steps"));
  return `${parts.join("; ")}.`;
}
