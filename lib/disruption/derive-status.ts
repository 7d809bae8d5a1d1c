import type { Condition, SandboxStatus } from "../domain/sandbox-status.ts";
import { classifyDisruption, type DisruptionFinding } from "./disruption-classification.ts";
import { isOpen, readDisruptionDetails, writeDisruptionDetails, type DisruptionDetails, type DisruptionRecord } from "./disruption-details.ts";
import { isoTime, isPodReady, nodeNamed, type Observed, type ObservedPod } from "./observed.ts";
import { recoveryOfReplacement, recoveryWhileGoing, WAITING_FOR_REPLACEMENT, type RecoveryStep } from "./recovery-classification.ts";
import { failedPodVerdict, startingReason, type Verdict } from "./starting-reason.ts";

export type { Observed, ObservedClaim, ObservedEvent, ObservedNode, ObservedPod, ObservedSandbox } from "./observed.ts";

// A sandbox's status, derived afresh from what the cluster shows — never from the status it had
// before (level-triggered): the Sandbox resource, its pod and the pod's node, its claims and
// recent events. Two things cannot be seen afresh and come from `previous`: which pod and node
// came before (identity), and the last disruption (a pod that is gone no longer says why it
// went), carried in `details` until the next disruption replaces it. Pure, so every case is a
// table row.

const NO_CHECKPOINT = "No checkpoint was taken before it went.";
const checkpointedAt = (at: string) => `The last successful checkpoint in this pod finished at ${at}.`;

/** When the last successful checkpoint finished, if it ran in this pod. Matched by the pod, not by time: Berth's clock and the cluster's need not agree. */
const checkpointOf = (podUid: string | null, lastCheckpoint: Observed["lastCheckpoint"]) => (podUid !== null && lastCheckpoint?.podUid === podUid ? lastCheckpoint.finishedAt.toISOString() : null);

/** What the sandbox looks like now, and the disruption history to carry into the next derivation. */
interface Outcome {
  verdict: Verdict;
  history: DisruptionDetails;
}

type Identity = Pick<SandboxStatus, "nodeName" | "podName" | "podUid" | "previousNodeName" | "previousPodUid">;

const READY: Verdict = { phase: "Ready", reason: null, message: null };

function derive(observed: Observed, previous: Identity, past: DisruptionDetails, now: Date): Outcome {
  const { sandbox, pod } = observed;
  if (observed.deleted) return { verdict: { phase: "Deleted", reason: null, message: null }, history: past };
  if (!sandbox) return { verdict: { phase: "Error", reason: "SandboxMissing", message: "The Sandbox resource no longer exists in the cluster; it was deleted outside Berth" }, history: past };
  if (sandbox.metadata?.deletionTimestamp) return { verdict: { phase: "Deleting", reason: "Deleting", message: "The Sandbox is being deleted" }, history: past };
  if (!sandbox.running) {
    const verdict: Verdict = pod ? { phase: "Stopping", reason: "PodTerminating", message: "Stopping: the pod is terminating; the workspace claims are kept" } : { phase: "Stopped", reason: "Suspended", message: null };
    return { verdict, history: stopped(past) };
  }
  const node = nodeNamed(observed, pod?.spec?.nodeName);
  const finding = pod ? classifyDisruption(pod, node) : null;
  const open = isOpen(past) ? past.disruption : null;
  const replacement = open && pod && pod.metadata?.uid !== open.podUid ? pod : null;
  if (pod && finding && !replacement) return disrupted(recordOf(finding, pod, open, observed.lastCheckpoint ?? null, now), recoveryWhileGoing(pod, node, finding), null);
  // A replacement that never served is part of the same recovery, measured from the first
  // disruption: one taken away too sends the sandbox back to waiting for the next; one whose
  // node is down (not yet deleted) is a replacement waiting for its node, below.
  if (open && replacement && finding && isGoing(replacement)) return disrupted(open, goingToo(finding, recoveryWhileGoing(replacement, node, finding)), replacement);
  const current = open ?? vanished(previous, pod, observed.lastCheckpoint ?? null, now);
  if (!current) return { verdict: undisrupted(observed, pod), history: past };
  if (!pod) return disrupted(current, WAITING_FOR_REPLACEMENT, null);
  // A replacement still marked Ready on a node that is down is not serving: it is not recovered.
  if (isPodReady(pod) && !finding) return recovered(current, pod, now);
  const { step, verdict } = recoveryOfReplacement(observed, pod, current);
  return { verdict, history: { disruption: current, recovery: underWay(current, step, pod) } };
}

/** A sandbox never disrupted, or recovered since: the first start's reasons, as before. */
function undisrupted(observed: Observed, pod: ObservedPod | null): Verdict {
  if (!pod) return { phase: "Starting", reason: "WaitingForPod", message: "Waiting for the controller to create the pod" };
  if (pod.status?.phase === "Failed") return failedPodVerdict(pod);
  if (isPodReady(pod)) return READY;
  return startingReason(observed, pod);
}

/**
 * The disruption of the pod in view. While the same pod is still going, its first-seen time is
 * kept (later signals, such as the taint manager's deletion after a node loss, refine the reason
 * but the sandbox stopped serving at the first).
 */
function recordOf(finding: DisruptionFinding, pod: ObservedPod, open: DisruptionRecord | null, lastCheckpoint: Observed["lastCheckpoint"], now: Date): DisruptionRecord {
  const podUid = pod.metadata?.uid ?? null;
  const same = open?.podUid === podUid ? open : null;
  const at = same?.at ?? finding.at ?? now.toISOString();
  const saved = same?.checkpointFinishedAt ?? checkpointOf(podUid, lastCheckpoint);
  return {
    reason: finding.reason,
    message: `${finding.what}. ${saved ? checkpointedAt(saved) : NO_CHECKPOINT}`,
    at,
    podUid,
    nodeName: pod.spec?.nodeName ?? null,
    checkpointTaken: saved !== null,
    checkpointFinishedAt: saved,
  };
}

/**
 * The pod last seen is gone, or already replaced, while the sandbox should run, and nothing was
 * seen saying why (it went between two looks: the reconciler reads the latest state, never every
 * step). Even a replacement that is already Ready tells of a disruption: it is dated by the
 * replacement's creation (the old pod was gone by then, the two share a name), so the recovery
 * measured from it is a lower bound.
 */
function vanished(previous: Identity, pod: ObservedPod | null, lastCheckpoint: Observed["lastCheckpoint"], now: Date): DisruptionRecord | null {
  if (!previous.podUid || pod?.metadata?.uid === previous.podUid) return null;
  const replacedUnseen = pod !== null && isPodReady(pod);
  const created = replacedUnseen ? isoTime(pod.metadata?.creationTimestamp) : null;
  const saved = checkpointOf(previous.podUid, lastCheckpoint);
  const ending = saved ? checkpointedAt(saved) : NO_CHECKPOINT;
  return {
    reason: "PodDeleted",
    message: replacedUnseen
      ? `Pod ${previous.podUid} was replaced between two looks; nothing was seen saying why it went, and it had gone by the time its replacement was created. ${ending}`
      : `Pod ${previous.podUid} is gone while the sandbox should run; nothing was seen saying why. ${ending}`,
    at: created ?? now.toISOString(),
    podUid: previous.podUid,
    nodeName: previous.nodeName,
    checkpointTaken: saved !== null,
    checkpointFinishedAt: saved,
  };
}

function disrupted(disruption: DisruptionRecord, step: RecoveryStep, replacement: ObservedPod | null): Outcome {
  return {
    verdict: { phase: "Disrupted", reason: disruption.reason, message: `${disruption.message} ${step.message}` },
    history: { disruption, recovery: underWay(disruption, step, replacement) },
  };
}

/** On its way out: being deleted, or ended Failed (which the controller will not restart). */
const isGoing = (pod: ObservedPod) => Boolean(pod.metadata?.deletionTimestamp) || pod.status?.phase === "Failed";

/** The replacement went the way of the pod it replaced: say so, then what recovery waits for now. */
function goingToo(finding: DisruptionFinding, step: RecoveryStep): RecoveryStep {
  return { reason: step.reason, message: `The replacement pod is going too (${finding.reason}: ${finding.what}). ${step.message}` };
}

/** Recovery is measured from the disruption: that is when the sandbox stopped serving. */
function underWay(disruption: DisruptionRecord, step: RecoveryStep, replacement: ObservedPod | null): DisruptionDetails["recovery"] {
  return {
    reason: step.reason,
    message: step.message,
    startedAt: disruption.at,
    recoveredAt: null,
    durationMs: null,
    replacementPodUid: replacement?.metadata?.uid ?? null,
    replacementNodeName: replacement?.spec?.nodeName ?? null,
  };
}

/**
 * When the replacement became Ready, by the cluster's clock (the clock the disruption was dated
 * by), so the duration does not depend on Berth's clock agreeing with the cluster's.
 */
function readyAt(pod: ObservedPod, now: Date): Date {
  const at = isoTime(pod.status?.conditions?.find((one) => one.type === "Ready" && one.status === "True")?.lastTransitionTime);
  return at ? new Date(at) : now;
}

/** Ready again: written once, then carried unchanged (a closed recovery is never recomputed). */
function recovered(disruption: DisruptionRecord, pod: ObservedPod, now: Date): Outcome {
  const at = readyAt(pod, now);
  const durationMs = Math.max(0, at.getTime() - Date.parse(disruption.at));
  const where = pod.spec?.nodeName ? ` on node ${pod.spec.nodeName}` : "";
  return {
    verdict: READY,
    history: {
      disruption,
      recovery: {
        reason: "Recovered",
        message: `Pod ${pod.metadata?.uid ?? "(unknown)"} is Ready${where}, ${Math.round(durationMs / 1000)} s after the disruption.`,
        startedAt: disruption.at,
        recoveredAt: at.toISOString(),
        durationMs,
        replacementPodUid: pod.metadata?.uid ?? null,
        replacementNodeName: pod.spec?.nodeName ?? null,
      },
    },
  };
}

/** Stopped before it recovered: the next start is a fresh start, not the end of that recovery. */
function stopped(past: DisruptionDetails): DisruptionDetails {
  if (!isOpen(past)) return past;
  return { disruption: past.disruption, recovery: underWay(past.disruption, { reason: "Stopped", message: "The sandbox was stopped before it recovered." }, null) };
}

/** Disrupted and Recovering, True while a disruption is open; False says how the last one ended. */
function disruptionConditions(history: DisruptionDetails): Pick<Condition, "type" | "status" | "reason" | "message">[] {
  if (!isOpen(history)) {
    const reason = history.recovery?.reason ?? "NoDisruption";
    return [
      { type: "Disrupted", status: "False", reason },
      { type: "Recovering", status: "False", reason },
    ];
  }
  const { disruption, recovery } = history;
  // A Failed pod nobody replaces yet: disrupted, but no recovery is under way.
  const recovering = recovery !== null && recovery.reason !== "NotReplaced";
  return [
    { type: "Disrupted", status: "True", reason: disruption.reason, message: disruption.message },
    { type: "Recovering", status: recovering ? "True" : "False", reason: recovery?.reason ?? "NotReplaced", ...(recovery ? { message: recovery.message } : {}) },
  ];
}

/** A condition keeps its lastTransitionTime while its status and reason stay the same. */
function settle(fresh: Pick<Condition, "type" | "status" | "reason" | "message">, before: Condition[], now: Date): Condition {
  const kept = before.find((one) => one.type === fresh.type);
  const same = kept !== undefined && kept.status === fresh.status && kept.reason === fresh.reason;
  return { ...fresh, lastTransitionTime: same ? kept.lastTransitionTime : now.toISOString() };
}

/**
 * Where the sandbox runs; previous node and pod move along when the pod is replaced. Once the
 * pod is gone the status no longer names it, but the open disruption does.
 */
function identity(previous: Identity, pod: ObservedPod | null, past: DisruptionDetails) {
  const before = previous.podUid === null && isOpen(past) ? { podUid: past.disruption.podUid, nodeName: past.disruption.nodeName } : previous;
  const podUid = pod?.metadata?.uid ?? null;
  const replaced = podUid !== null && before.podUid !== null && podUid !== before.podUid;
  return {
    podName: pod?.metadata?.name ?? null,
    podUid,
    nodeName: pod?.spec?.nodeName ?? null,
    previousPodUid: replaced ? before.podUid : previous.previousPodUid,
    previousNodeName: replaced ? before.nodeName : previous.previousNodeName,
  };
}

/**
 * The derived status. `previous` gives identity history (which pod and node came before) and
 * the last disruption, never the phase.
 */
export function deriveStatus(observed: Observed, previous: SandboxStatus, now: Date): SandboxStatus {
  const past = readDisruptionDetails(previous.details);
  const { verdict, history } = derive(observed, previous, past, now);
  const { phase, reason, message } = verdict;
  const ready = { type: "Ready", status: phase === "Ready" ? ("True" as const) : ("False" as const), ...(reason ? { reason } : {}), ...(message ? { message } : {}) };
  const conditions = [ready, ...disruptionConditions(history)].map((fresh) => settle(fresh, previous.conditions, now));
  return { phase, reason, message, conditions, ...identity(previous, observed.pod, past), details: writeDisruptionDetails(previous.details, history) };
}
