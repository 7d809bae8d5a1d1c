import type { DisruptionFinding } from "./disruption-classification.ts";
import type { DisruptionRecord, RecoveryReason } from "./disruption-details.ts";
import { describeNodeReadiness, describeNodeTrouble, nodeIsDown } from "./node-state.ts";
import { nodeNamed, podCondition, type Observed, type ObservedNode, type ObservedPod } from "./observed.ts";
import { failedPodVerdict, startingReason, type Verdict } from "./starting-reason.ts";

// What a disrupted sandbox's recovery is waiting for: before a replacement pod exists, and
// while it starts. The Recovering condition's reason and message, and the phase that goes with it.

export interface RecoveryStep {
  reason: RecoveryReason;
  message: string;
}

/** The scheduler's two wordings of a pod pinned by its volume: before 1.33, and after (kubernetes#129887). */
const PINNED_VOLUME_WORDINGS = ["volume node affinity conflict", "didn't match PersistentVolume's node affinity"];

export const WAITING_FOR_REPLACEMENT: RecoveryStep = {
  reason: "ReplacementPending",
  message: "Waiting for agent-sandbox to create a replacement pod.",
};

// agent-sandbox leaves a Failed pod alone; whether Berth steps in is the sandbox's policy, not
// something the status can see, hence both outcomes in the message.
const NOT_REPLACED: RecoveryStep = {
  reason: "NotReplaced",
  message:
    "agent-sandbox does not replace a pod that ended Failed: Berth recovers the sandbox automatically if its disruption policy allows (autoRecoverFailedPods), otherwise recover it.",
};

/** The disrupted pod is still there, on its way out: what has to happen before its replacement can come. */
export function recoveryWhileGoing(pod: ObservedPod, node: ObservedNode | null, finding: DisruptionFinding): RecoveryStep {
  // Once someone deletes the Failed pod, the controller replaces it like any other.
  if (finding.reason === "ResourcePressure" && !pod.metadata?.deletionTimestamp) return NOT_REPLACED;
  // A pod on a lost node stays Terminating until the node returns or the pod is force-deleted,
  // and the replacement, with the same name, cannot be made before.
  if (node && nodeIsDown(node)) {
    return {
      reason: "WaitingForNode",
      message: `The pod stays on node ${node.metadata?.name} until the node is back or the pod is deleted (by the taint manager once its toleration runs out, 300 s by default, or by force); the replacement follows.`,
    };
  }
  return { reason: "ReplacementPending", message: "The pod is terminating; agent-sandbox creates a replacement with the same name once it is gone." };
}

/** A replacement pod exists and is not Ready: what it waits for, and the phase the sandbox is in meanwhile. */
export function recoveryOfReplacement(observed: Observed, pod: ObservedPod, disruption: DisruptionRecord): { step: RecoveryStep; verdict: Verdict } {
  if (pod.status?.phase === "Failed") return failing(failedPodVerdict(pod));
  const bound = nodeNamed(observed, pod.spec?.nodeName);
  if (bound && nodeIsDown(bound)) {
    return recovering({ reason: "WaitingForNode", message: `The replacement pod is bound to node ${pod.spec?.nodeName}, which is down (${describeNodeReadiness(bound)}); it starts when the node is back.` });
  }
  const scheduler = unschedulableMessage(pod);
  if (scheduler !== null) return recovering(isPinnedByVolume(scheduler) ? pinnedVolume(observed, disruption, scheduler) : { reason: "Unschedulable", message: scheduler });
  const starting = startingReason(observed, pod);
  if (starting.reason === "PullingImage" || starting.reason === "ImagePullFailed") return recovering({ reason: "ImagePull", message: starting.message ?? "Pulling the image" });
  if (starting.phase === "Error") return failing(starting);
  return recovering({ reason: "ReplacementStarting", message: starting.message ?? "The replacement pod is starting." });
}

const recovering = (step: RecoveryStep) => ({ step, verdict: { phase: "Recovering" as const, reason: step.reason, message: step.message } });

/** The replacement itself fails: the sandbox is in Error, and its recovery stays open until someone looks. */
const failing = (verdict: Verdict) => ({ step: { reason: "ReplacementFailing" as const, message: verdict.message ?? "The replacement pod fails." }, verdict });

/** The scheduler's message, verbatim, while it cannot place the pod (a pod held by scheduling gates is not refused). */
function unschedulableMessage(pod: ObservedPod): string | null {
  const scheduled = podCondition(pod, "PodScheduled");
  if (pod.spec?.nodeName || scheduled?.status !== "False" || (scheduled.reason ?? "Unschedulable") !== "Unschedulable") return null;
  return scheduled.message ?? "The scheduler cannot place the replacement pod.";
}

export const isPinnedByVolume = (schedulerMessage: string) => PINNED_VOLUME_WORDINGS.some((wording) => schedulerMessage.includes(wording));

/**
 * The workspace's volume can only be mounted on the node the disrupted pod ran on (local-path
 * storage): the replacement waits for that node, however many others are free.
 */
function pinnedVolume(observed: Observed, disruption: DisruptionRecord, scheduler: string): RecoveryStep {
  const node = nodeNamed(observed, disruption.nodeName);
  const trouble = node ? describeNodeTrouble(node) : null;
  const where = disruption.nodeName ? `node ${disruption.nodeName}${trouble ? `, which is ${trouble}` : ""}` : "the node it was made on";
  return {
    reason: "VolumeNodeAffinityConflict",
    message: `The workspace volume is pinned to ${where}: the replacement can only run there and waits for it (uncordon or restore the node, or move the workspace). Scheduler: ${scheduler}`,
  };
}
