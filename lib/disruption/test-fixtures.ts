// Builders for the status derivation's tests: a pod, a node, a condition or a past disruption
// with only the fields a test is about, shaped the way Kubernetes writes them.
import type { SandboxStatus } from "../domain/sandbox-status.ts";
import { deriveStatus } from "./derive-status.ts";
import type { DisruptionRecord, RecoveryRecord } from "./disruption-details.ts";
import type { Observed, ObservedCondition, ObservedNode, ObservedPod } from "./observed.ts";

export const now = new Date("2026-11-30T12:00:00Z");
/** Five minutes before `now`: when the test's disruption happened. */
export const fiveMinutesAgo = "2026-11-30T11:55:00.000Z";

export function aStatus(overrides: Partial<SandboxStatus> = {}): SandboxStatus {
  return { phase: "Pending", reason: null, message: null, conditions: [], nodeName: null, podName: null, podUid: null, previousNodeName: null, previousPodUid: null, details: {}, ...overrides };
}

export interface PodOverrides {
  uid?: string;
  /** When the API server made it (metadata.creationTimestamp). */
  created?: string;
  /** The node it is bound to; "" for not scheduled. Default worker-1. */
  node?: string;
  ready?: boolean;
  phase?: string;
  scheduled?: { status: string; reason?: string; message?: string };
  /** Graceful deletion under way, as the API server writes it: due time and grace. */
  deleting?: boolean | { at: string; graceSeconds: number };
  /** Further conditions, e.g. aDisruptionTarget(…). */
  conditions?: ObservedCondition[];
  status?: ObservedPod["status"];
}

export function aPod(overrides: PodOverrides = {}): ObservedPod {
  const deleting = overrides.deleting === true ? { at: now.toISOString(), graceSeconds: undefined } : overrides.deleting ? { at: overrides.deleting.at, graceSeconds: overrides.deleting.graceSeconds } : null;
  return {
    metadata: {
      name: "box",
      uid: overrides.uid ?? "pod-1",
      ...(overrides.created ? { creationTimestamp: overrides.created } : {}),
      ...(deleting ? { deletionTimestamp: deleting.at } : {}),
      ...(deleting?.graceSeconds !== undefined ? { deletionGracePeriodSeconds: deleting.graceSeconds } : {}),
    },
    spec: overrides.node === undefined ? { nodeName: "worker-1" } : overrides.node ? { nodeName: overrides.node } : {},
    status: {
      phase: overrides.phase ?? (overrides.ready ? "Running" : "Pending"),
      conditions: [
        ...(overrides.ready ? [{ type: "Ready", status: "True" }] : []),
        ...(overrides.scheduled ? [{ type: "PodScheduled", ...overrides.scheduled }] : []),
        ...(overrides.conditions ?? []),
      ],
      ...overrides.status,
    },
  };
}

/** DisruptionTarget=True as the component taking the pod away writes it. */
export function aDisruptionTarget(reason: string, message?: string, at: string = fiveMinutesAgo): ObservedCondition {
  return { type: "DisruptionTarget", status: "True", reason, ...(message ? { message } : {}), lastTransitionTime: at };
}

/** The kubelet's pressure eviction: Failed/Evicted, with DisruptionTarget on clusters that write it. */
export function anEvictedPod(options: { withDisruptionTarget?: boolean; deleting?: boolean } = {}): ObservedPod {
  const message = "The node was low on resource: memory. Threshold quantity: 100Mi, available: 42Mi. ";
  return aPod({
    phase: "Failed",
    deleting: options.deleting,
    conditions: options.withDisruptionTarget === false ? [] : [aDisruptionTarget("TerminationByKubelet", message)],
    status: { phase: "Failed", reason: "Evicted", message },
  });
}

export interface NodeOverrides {
  name?: string;
  /** Its Ready condition's status; Unknown is a node that stopped posting its status. */
  ready?: "True" | "False" | "Unknown";
  readySince?: string;
  cordoned?: boolean;
  unreachable?: boolean;
}

export function aNode(overrides: NodeOverrides = {}): ObservedNode {
  const ready = overrides.ready ?? "True";
  return {
    metadata: { name: overrides.name ?? "worker-1" },
    spec: {
      ...(overrides.cordoned ? { unschedulable: true } : {}),
      taints: [
        ...(overrides.cordoned ? [{ key: "node.kubernetes.io/unschedulable", effect: "NoSchedule" }] : []),
        ...(overrides.unreachable ? [{ key: "node.kubernetes.io/unreachable", effect: "NoExecute" }, { key: "node.kubernetes.io/unreachable", effect: "NoSchedule" }] : []),
      ],
    },
    status: {
      conditions: [
        ready === "Unknown"
          ? { type: "Ready", status: "Unknown", reason: "NodeStatusUnknown", message: "Kubelet stopped posting node status.", lastTransitionTime: overrides.readySince ?? fiveMinutesAgo }
          : { type: "Ready", status: ready, reason: ready === "True" ? "KubeletReady" : "KubeletNotReady", lastTransitionTime: overrides.readySince ?? "2026-11-30T08:00:00.000Z" },
      ],
    },
  };
}

/** A node lost the way the node lifecycle controller marks it: Ready=Unknown and the unreachable taints. */
export const aLostNode = (overrides: NodeOverrides = {}) => aNode({ ready: "Unknown", unreachable: true, ...overrides });

export function aDisruption(overrides: Partial<DisruptionRecord> = {}): DisruptionRecord {
  return { reason: "NodeDrained", message: "Node worker-1 is being drained. No checkpoint was taken before it went.", at: fiveMinutesAgo, podUid: "pod-1", nodeName: "worker-1", checkpointTaken: false, ...overrides };
}

export function aRecovery(overrides: Partial<RecoveryRecord> = {}): RecoveryRecord {
  return { reason: "ReplacementPending", message: "Waiting for agent-sandbox to create a replacement pod.", startedAt: fiveMinutesAgo, recoveredAt: null, durationMs: null, replacementPodUid: null, replacementNodeName: null, ...overrides };
}

/**
 * The status stored after a disruption was seen and the old pod went: it no longer names a pod,
 * but its details carry the disruption and the recovery under way.
 */
export function disruptedEarlier(disruption: Partial<DisruptionRecord> = {}, recovery: Partial<RecoveryRecord> = {}): SandboxStatus {
  return aStatus({ phase: "Disrupted", details: { disruption: aDisruption(disruption), recovery: aRecovery(recovery) } });
}

export function observed(overrides: Partial<Observed> = {}): Observed {
  return { sandbox: { metadata: { name: "box" }, running: true }, pod: aPod({ ready: true }), node: aNode(), claims: [{ metadata: { name: "workspace-box" }, status: { phase: "Bound" } }], events: [], deleted: false, ...overrides };
}

export const verdictOf = (input: Observed, previous = aStatus()) => {
  const { phase, reason, message } = deriveStatus(input, previous, now);
  return { phase, reason, message };
};

/** One derived condition's status and reason, e.g. ["True", "ReplacementPending"]. */
export const conditionOf = (status: SandboxStatus, type: string) => {
  const found = status.conditions.find((one) => one.type === type);
  return [found?.status, found?.reason];
};
