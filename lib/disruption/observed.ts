// What the status derivation reads from the cluster: the parts of the Sandbox, its pod, the pod's
// node, its claims and recent events that a status is derived from. Structural subsets of the
// client's V1Pod, V1Node, … so the reconciler passes its watch-cache objects as they are; they are
// not parsed (the API server already validated them), hence plain interfaces rather than zod.

interface Meta {
  name?: string;
  uid?: string;
  creationTimestamp?: Date | string;
  deletionTimestamp?: Date | string;
  /** Set with deletionTimestamp: the grace the deletion was given. */
  deletionGracePeriodSeconds?: number;
  annotations?: Record<string, string>;
}

/** A pod's or a node's condition; times arrive as Date from the client, as strings from JSON. */
export interface ObservedCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: Date | string;
}

export interface ContainerStatus {
  name: string;
  restartCount?: number;
  state?: { waiting?: { reason?: string; message?: string }; running?: object; terminated?: { exitCode?: number; reason?: string } };
}

export interface ObservedPod {
  metadata?: Meta;
  spec?: { nodeName?: string };
  status?: {
    phase?: string;
    reason?: string;
    message?: string;
    conditions?: ObservedCondition[];
    initContainerStatuses?: ContainerStatus[];
    containerStatuses?: ContainerStatus[];
  };
}

export interface ObservedTaint {
  key: string;
  effect: string;
  value?: string;
}

/** The node the pod is on, or was on before it went away. */
export interface ObservedNode {
  metadata?: { name?: string };
  spec?: { unschedulable?: boolean; taints?: ObservedTaint[] };
  status?: { conditions?: ObservedCondition[] };
}

export interface ObservedClaim {
  metadata?: Meta;
  status?: { phase?: string };
}

export interface ObservedEvent {
  reason?: string;
  message?: string;
  involvedObject?: { kind?: string; name?: string; uid?: string };
}

export interface ObservedSandbox {
  metadata?: Meta;
  /** v1beta1 operatingMode, or v1alpha1 replicas converted to it. */
  running: boolean;
}

export interface Observed {
  sandbox: ObservedSandbox | null;
  pod: ObservedPod | null;
  /**
   * The node the pod is on, or the node the lost pod was on. Optional: without it node loss is
   * still seen through the pod's DisruptionTarget condition, only later (after the toleration).
   */
  node?: ObservedNode | null;
  claims: ObservedClaim[];
  /** Recent events about the pod and the claims, oldest first. */
  events: ObservedEvent[];
  /** The record says Berth deleted it. */
  deleted: boolean;
  /**
   * The sandbox's last successful checkpoint: the pod it ran in and when it finished. Looked up
   * only when a disruption is first recorded (status-reconciler.ts), to say whether the going
   * pod's work was saved first.
   */
  lastCheckpoint?: { podUid: string | null; finishedAt: Date } | null;
}

export const podCondition = (pod: ObservedPod | null, type: string) => pod?.status?.conditions?.find((one) => one.type === type);

export const isPodReady = (pod: ObservedPod) => podCondition(pod, "Ready")?.status === "True";

/** The observed node, only when it is the named one: a node is never blamed for another's pod. */
export function nodeNamed(observed: Observed, name: string | null | undefined): ObservedNode | null {
  return name && observed.node?.metadata?.name === name ? observed.node : null;
}

/** A Kubernetes time as ISO 8601, or null when it is absent or unreadable. */
export function isoTime(value: Date | string | undefined): string | null {
  if (value === undefined) return null;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? null : time.toISOString();
}
