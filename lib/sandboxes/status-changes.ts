import { readDisruptionDetails } from "../disruption/disruption-details.ts";
import type { Protection } from "../disruption/eviction-protection.ts";
import { handoutMessage } from "../domain/sandbox-handout.ts";
import type { SandboxRecord } from "../domain/sandbox-record.ts";
import type { SandboxStatus } from "../domain/sandbox-status.ts";
import type { NewTimelineEvent } from "../domain/timeline.ts";

// What the reconciler makes of a newly derived status: whether it is worth storing, worth telling
// the timeline, and in which words. Pure.

/** A Ready sandbox whose checkpoint is running shows it: exec is refused until it ends. */
export function checkpointing(status: SandboxStatus): SandboxStatus {
  if (status.phase !== "Ready") return status;
  return { ...status, phase: "Checkpointing", reason: "CheckpointRunning", message: "A checkpoint is running: new exec sessions are refused until it ends" };
}


/** Disruption history and state verdicts change without the phase doing so; they are stored all the same. */
export function detailsChanged(before: SandboxStatus, after: SandboxStatus): boolean {
  return JSON.stringify(before.details) !== JSON.stringify(after.details) || JSON.stringify(before.conditions.map(({ lastTransitionTime: _, ...rest }) => rest)) !== JSON.stringify(after.conditions.map(({ lastTransitionTime: _, ...rest }) => rest));
}

export function protectionEventOf(record: SandboxRecord, protection: Protection, now: Date): NewTimelineEvent {
  return {
    sandboxId: record.id,
    type: "Protection",
    reason: protection.drainBlocked ? "DrainBlocked" : "DrainUnblocked",
    message: protection.drainBlocked ? (protection.message ?? "A drain waits on this sandbox") : "No drain waits on this sandbox any more",
    occurredAt: now,
    data: { budgetName: protection.budgetName, nodeName: record.nodeName },
  };
}

/**
 * A change of phase (or of why), told as the kind of thing that happened. A pod replaced between
 * two looks goes from Ready straight to Ready in a new pod: its disruption is told first, then
 * the recovery, so the timeline never shows a recovery from nothing.
 */
export function timelineEventsOf(before: SandboxRecord, after: SandboxStatus, now: Date): NewTimelineEvent[] {
  const history = readDisruptionDetails(after.details);
  const recoveredInto = after.phase === "Ready" && history.recovery?.reason === "Recovered" && history.recovery.replacementPodUid === after.podUid;
  const replacedUnseen = recoveredInto && before.podUid !== null && before.podUid !== after.podUid && (before.phase === "Ready" || before.phase === "Checkpointing");
  // Back to Ready from a checkpoint is not a recovery, though the last recovery still names this pod.
  const recoveredNow = recoveredInto && (replacedUnseen || (before.phase !== "Ready" && before.phase !== "Checkpointing"));
  const type = after.phase === "Disrupted" ? "Disruption" : after.phase === "Recovering" || recoveredNow ? "Recovery" : "Lifecycle";
  const told: NewTimelineEvent = {
    sandboxId: before.id,
    type,
    reason: recoveredNow ? "Recovered" : after.phase === before.phase ? `${after.phase}Changed` : after.phase,
    message: (recoveredNow ? history.recovery?.message : after.message) ?? `The sandbox is ${after.phase}`,
    occurredAt: now,
    data: {
      phase: after.phase,
      reason: after.reason,
      previousPhase: before.phase,
      podUid: after.podUid,
      nodeName: after.nodeName,
      ...(type === "Lifecycle" ? {} : { disruption: history.disruption, recovery: history.recovery }),
    },
  };
  if (!replacedUnseen || !history.disruption) return [told];
  const disruption: NewTimelineEvent = {
    sandboxId: before.id,
    type: "Disruption",
    reason: history.disruption.reason,
    message: history.disruption.message,
    occurredAt: now,
    data: { phase: "Disrupted", reason: history.disruption.reason, previousPhase: before.phase, podUid: null, nodeName: history.disruption.nodeName, disruption: history.disruption, recovery: null },
  };
  return [disruption, told];
}

/** A hand-out to a claim seen since the record was stored, told once: null when there is none new. */
export function handoutEventOf(before: SandboxRecord, after: SandboxStatus, now: Date): NewTimelineEvent | null {
  const handout = after.details.handout;
  const told = before.details.handout;
  // The launch type may be labelled a moment after the owner changes: told once it is known.
  if (!handout?.claim || !handout.launchType || (told?.claim === handout.claim && told.launchType === handout.launchType)) return null;
  const pool = told?.pool ?? null;
  return {
    sandboxId: before.id,
    type: "Lifecycle",
    reason: handout.launchType === "warm" ? "HandedOutWarm" : "StartedCold",
    message: handoutMessage(handout, pool),
    occurredAt: now,
    data: { claim: handout.claim, launchType: handout.launchType, pool, podUid: after.podUid, nodeName: after.nodeName },
  };
}

const VERDICT_REASONS = { restored: "DurableStateRestored", lost: "DurableStateLost", unverifiable: "DurableStateUnverifiable" } as const;

/** A verdict reached since the record was stored, told once: null when there is none new. */
export function verdictEventOf(before: SandboxRecord, after: SandboxStatus, now: Date): NewTimelineEvent | null {
  const verdict = after.details.durableState;
  if (!verdict || before.details.durableState?.podUid === verdict.podUid) return null;
  return { sandboxId: before.id, type: "DurableState", reason: VERDICT_REASONS[verdict.verdict], message: verdict.why, occurredAt: now, data: { ...verdict, nodeName: after.nodeName } };
}

export function changed(before: SandboxStatus, after: SandboxStatus): boolean {
  return (
    before.phase !== after.phase ||
    before.reason !== after.reason ||
    before.message !== after.message ||
    before.podUid !== after.podUid ||
    before.nodeName !== after.nodeName
  );
}
