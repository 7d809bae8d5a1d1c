import type { DisruptionReason } from "./disruption-details.ts";
import { describeNodeReadiness, nodeIsCordoned, nodeIsDown, nodeReadyCondition } from "./node-state.ts";
import { isoTime, podCondition, type ObservedNode, type ObservedPod } from "./observed.ts";

// Why a pod is going away without its user asking, read from what Kubernetes writes on the pod
// and its node. Each Kubernetes signal maps to one Disrupted reason; null means the pod is not
// being disrupted (it may still be starting, failing or Ready).

export interface DisruptionFinding {
  reason: DisruptionReason;
  /** What happened, for a person; the record adds that no checkpoint was taken. */
  what: string;
  /** When it happened, when the cluster says so; null means "since first seen". */
  at: string | null;
}

/** The pod's disruption, or null: the cluster's explicit marker first, then the facts it implies. */
export function classifyDisruption(pod: ObservedPod, node: ObservedNode | null): DisruptionFinding | null {
  return byDisruptionTarget(pod, node) ?? byKubeletEviction(pod) ?? byNodeLoss(pod, node) ?? byDeletion(pod);
}

const onNode = (pod: ObservedPod) => (pod.spec?.nodeName ? `node ${pod.spec.nodeName}` : "its node");
const quoted = (message: string | undefined) => (message ? ` (${message.trim()})` : "");

/**
 * When the deletion was asked for. The API server sets deletionTimestamp to the request time
 * plus the grace period (the time the pod is due to be gone), and records that grace period
 * beside it; without it, the deletionTimestamp is the best there is.
 */
export function deletionRequestedAt(pod: ObservedPod): string | null {
  const due = isoTime(pod.metadata?.deletionTimestamp);
  if (!due) return null;
  const grace = pod.metadata?.deletionGracePeriodSeconds ?? 0;
  return new Date(Date.parse(due) - grace * 1000).toISOString();
}

/** DisruptionTarget=True: the component that is taking the pod away says which it is and when. */
function byDisruptionTarget(pod: ObservedPod, node: ObservedNode | null): DisruptionFinding | null {
  const target = podCondition(pod, "DisruptionTarget");
  if (target?.status !== "True") return null;
  const at = isoTime(target.lastTransitionTime) ?? deletionRequestedAt(pod);
  const said = quoted(target.message);
  switch (target.reason) {
    case "EvictionByEvictionAPI":
      // `kubectl drain` is a cordon followed by evictions: an eviction from a cordoned node is a drain.
      return node && nodeIsCordoned(node)
        ? { reason: "NodeDrained", what: `Node ${node.metadata?.name} is being drained: it is cordoned and the pod was evicted${said}`, at }
        : { reason: "PodEvicted", what: `The pod was evicted through the Eviction API${said}`, at };
    case "PreemptionByScheduler":
      return { reason: "Preempted", what: `The scheduler preempted the pod to make room for a higher-priority pod${said}`, at };
    case "DeletionByTaintManager":
      return { reason: "NodeLost", what: `The pod was deleted from ${onNode(pod)}, which is lost, once its toleration of the node's NoExecute taint ran out${said}`, at };
    case "DeletionByPodGC":
      return { reason: "NodeLost", what: `The pod garbage collector deleted the pod: ${onNode(pod)} is gone or out of service${said}`, at };
    case "TerminationByKubelet":
      return { reason: "ResourcePressure", what: `The kubelet on ${onNode(pod)} evicted the pod${quoted(pod.status?.message ?? target.message)}`, at };
    default:
      return { reason: "PodDeleted", what: `The pod is being taken away (DisruptionTarget ${target.reason ?? "with no reason"})${said}`, at };
  }
}

/** Kubelet node-pressure eviction on clusters that do not write DisruptionTarget: the pod ends Failed/Evicted. */
function byKubeletEviction(pod: ObservedPod): DisruptionFinding | null {
  if (pod.status?.phase !== "Failed" || pod.status.reason !== "Evicted") return null;
  return { reason: "ResourcePressure", what: `The kubelet on ${onNode(pod)} evicted the pod${quoted(pod.status.message)}`, at: deletionRequestedAt(pod) };
}

/**
 * The node stopped reporting: the pod cannot run there, though it is only deleted once its
 * toleration of the unreachable taint runs out (300 s by default). Seen as soon as the node is.
 */
function byNodeLoss(pod: ObservedPod, node: ObservedNode | null): DisruptionFinding | null {
  if (!node || !nodeIsDown(node)) return null;
  return { reason: "NodeLost", what: `Node ${node.metadata?.name} is lost (${describeNodeReadiness(node)})`, at: isoTime(nodeReadyCondition(node)?.lastTransitionTime) ?? deletionRequestedAt(pod) };
}

/** Deleted with no component saying why (kubectl delete, a script): the sandbox still wants to run. */
function byDeletion(pod: ObservedPod): DisruptionFinding | null {
  const at = deletionRequestedAt(pod);
  if (!at) return null;
  return { reason: "PodDeleted", what: "The pod was deleted while the sandbox should run, with no eviction or other disruption recorded", at };
}
