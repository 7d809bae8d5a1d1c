import type { ObservedNode } from "./observed.ts";

// What a node's own fields say about it, read the way the node lifecycle controller writes them.

/** Taints the node lifecycle controller adds to a node it has lost touch with. */
const NODE_LOSS_TAINTS = ["node.kubernetes.io/unreachable", "node.kubernetes.io/not-ready"];

export const nodeReadyCondition = (node: ObservedNode) => node.status?.conditions?.find((one) => one.type === "Ready");

/**
 * Down: its Ready condition is False or Unknown (no heartbeat for 40 s), or it carries a loss
 * taint. A node with no Ready condition at all has not reported yet; that alone is not a loss.
 */
export function nodeIsDown(node: ObservedNode): boolean {
  const ready = nodeReadyCondition(node);
  return (ready !== undefined && ready.status !== "True") || (node.spec?.taints ?? []).some((taint) => NODE_LOSS_TAINTS.includes(taint.key));
}

/** Cordoned: `kubectl cordon` or the first step of `kubectl drain`. */
export const nodeIsCordoned = (node: ObservedNode) => node.spec?.unschedulable === true;

/** "Ready=Unknown, NodeStatusUnknown: Kubelet stopped posting node status." — for messages. */
export function describeNodeReadiness(node: ObservedNode): string {
  const ready = nodeReadyCondition(node);
  if (!ready) return "unreachable";
  return `Ready=${ready.status}${ready.reason ? `, ${ready.reason}` : ""}${ready.message ? `: ${ready.message}` : ""}`;
}

/** "cordoned", "not Ready", both, or null when neither, to say why a pinned volume's node cannot take the pod. */
export function describeNodeTrouble(node: ObservedNode): string | null {
  const troubles = [nodeIsCordoned(node) ? "cordoned" : null, nodeIsDown(node) ? "not Ready" : null].filter((one) => one !== null);
  return troubles.length > 0 ? troubles.join(" and ") : null;
}
