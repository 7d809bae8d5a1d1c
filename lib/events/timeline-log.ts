import type { TimelineEvent } from "../domain/timeline.ts";

// What the server log says of a timeline event, so log pipelines see evictions, replacements,
// scheduling failures and recoveries as Berth told them: which sandbox, where, what happened to
// which pod on which node, and how long it took. Pure.

/** The sandbox an event is about, as the log names it. */
export interface EventSubject {
  namespace: string;
  name: string;
}

const FAILED = /Failed|TimedOut|Interrupted|Unschedulable|Lost|Blocked/;

const text = (value: unknown) => (typeof value === "string" ? value : undefined);
const number = (value: unknown) => (typeof value === "number" ? value : undefined);
const field = (data: unknown, key: string) => (typeof data === "object" && data !== null ? (data as Record<string, unknown>)[key] : undefined);

export function timelineLogEntry(event: TimelineEvent, about: EventSubject | undefined): { level: "info" | "warn"; entry: Record<string, unknown> } {
  const { data } = event;
  const disruption = field(data, "disruption");
  const recovery = field(data, "recovery");
  const entry = {
    eventId: event.id,
    sandboxId: event.sandboxId,
    namespace: about?.namespace,
    sandbox: about?.name,
    type: event.type,
    reason: event.reason,
    message: event.message,
    podUid: text(field(data, "podUid")) ?? text(field(disruption, "podUid")),
    node: text(field(data, "nodeName")) ?? text(field(data, "node")) ?? text(field(disruption, "nodeName")),
    disruptionReason: text(field(disruption, "reason")),
    replacementPodUid: text(field(recovery, "replacementPodUid")),
    replacementNode: text(field(recovery, "replacementNodeName")),
    recoveryDurationMs: number(field(recovery, "durationMs")),
    checkpointDurationMs: event.type === "Checkpoint" ? number(field(data, "durationMs")) : undefined,
    runId: text(field(data, "runId")),
    verdict: text(field(field(data, "durableState"), "verdict")),
  };
  const level = event.type === "Disruption" || FAILED.test(event.reason) ? "warn" : "info";
  return { level, entry: Object.fromEntries(Object.entries(entry).filter(([, value]) => value !== undefined && value !== null)) };
}
