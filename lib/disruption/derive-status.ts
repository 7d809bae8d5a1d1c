import type { Condition, SandboxPhase, SandboxStatus } from "../domain/sandbox-status.ts";

// A sandbox's status, derived afresh from what the cluster shows — never from the status it had
// before (level-triggered): the Sandbox resource, its pod, its claims and recent events. Pure,
// so every case is a table row.

interface Meta {
  name?: string;
  uid?: string;
  deletionTimestamp?: Date | string;
  annotations?: Record<string, string>;
}

interface PodCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

export interface ObservedPod {
  metadata?: Meta;
  spec?: { nodeName?: string };
  status?: {
    phase?: string;
    reason?: string;
    message?: string;
    conditions?: PodCondition[];
    initContainerStatuses?: ContainerStatus[];
    containerStatuses?: ContainerStatus[];
  };
}

interface ContainerStatus {
  name: string;
  restartCount?: number;
  state?: { waiting?: { reason?: string; message?: string }; running?: object; terminated?: { exitCode?: number; reason?: string } };
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
  claims: ObservedClaim[];
  /** Recent events about the pod and the claims, oldest first. */
  events: ObservedEvent[];
  /** The record says Berth deleted it. */
  deleted: boolean;
}

interface Verdict {
  phase: SandboxPhase;
  reason: string | null;
  message: string | null;
}

const condition = (pod: ObservedPod | null, type: string) => pod?.status?.conditions?.find((one) => one.type === type);

function lastEvent(observed: Observed, kind: string, name: string | undefined, reasons: string[]): ObservedEvent | undefined {
  return observed.events.filter((event) => event.involvedObject?.kind === kind && event.involvedObject.name === name && reasons.includes(event.reason ?? "")).at(-1);
}

/** Why a pod that exists is not Ready yet, in the order a person would want to know it. */
function startingReason(observed: Observed, pod: ObservedPod): Verdict {
  const pendingClaim = observed.claims.find((claim) => claim.status?.phase !== "Bound");
  if (pendingClaim) {
    const why = lastEvent(observed, "PersistentVolumeClaim", pendingClaim.metadata?.name, ["FailedBinding", "ProvisioningFailed", "WaitForFirstConsumer", "ExternalProvisioning", "Provisioning"]);
    return { phase: "Provisioning", reason: "ClaimPending", message: `Claim ${pendingClaim.metadata?.name} is Pending${why?.message ? `: ${why.message}` : ""}` };
  }
  const scheduled = condition(pod, "PodScheduled");
  if (!pod.spec?.nodeName) {
    if (scheduled?.status === "False") return { phase: "Provisioning", reason: scheduled.reason ?? "Unschedulable", message: scheduled.message ?? "The pod cannot be scheduled" };
    return { phase: "Provisioning", reason: "WaitingForScheduling", message: "Waiting for the scheduler to place the pod" };
  }
  for (const init of pod.status?.initContainerStatuses ?? []) {
    if (init.state?.running) return { phase: "Provisioning", reason: "InitContainerRunning", message: `Init container ${init.name} is running (seeding the workspace)` };
    if (init.state?.waiting?.reason === "CrashLoopBackOff" || (init.state?.terminated && init.state.terminated.exitCode !== 0)) {
      return { phase: "Error", reason: "InitContainerFailed", message: `Init container ${init.name} failed${init.state.waiting?.message ? `: ${init.state.waiting.message}` : ""}` };
    }
  }
  const agent = pod.status?.containerStatuses?.[0];
  const waiting = agent?.state?.waiting?.reason;
  if (waiting === "CrashLoopBackOff") return { phase: "Error", reason: "ContainerCrashed", message: `Container ${agent!.name} keeps crashing (restarted ${agent!.restartCount ?? 0} times)` };
  if (waiting === "ErrImagePull" || waiting === "ImagePullBackOff") return { phase: "Error", reason: "ImagePullFailed", message: agent?.state?.waiting?.message ?? `The image of ${agent!.name} cannot be pulled` };
  const pulling = lastEvent(observed, "Pod", pod.metadata?.name, ["Pulling", "Pulled", "Started"]);
  if (pulling?.reason === "Pulling") return { phase: "Provisioning", reason: "PullingImage", message: pulling.message ?? "Pulling the image" };
  return { phase: "Provisioning", reason: "ContainersStarting", message: "Waiting for the containers to become Ready" };
}

function verdict(observed: Observed): Verdict {
  const { sandbox, pod } = observed;
  if (observed.deleted) return { phase: "Deleted", reason: null, message: null };
  if (!sandbox) return { phase: "Error", reason: "SandboxMissing", message: "The Sandbox resource no longer exists in the cluster; it was deleted outside Berth" };
  if (sandbox.metadata?.deletionTimestamp) return { phase: "Deleting", reason: "Deleting", message: "The Sandbox is being deleted" };
  if (!sandbox.running) {
    return pod ? { phase: "Stopping", reason: "PodTerminating", message: "Stopping: the pod is terminating; the workspace claims are kept" } : { phase: "Stopped", reason: "Suspended", message: null };
  }
  if (!pod) return { phase: "Starting", reason: "WaitingForPod", message: "Waiting for the controller to create the pod" };
  if (pod.metadata?.deletionTimestamp) return { phase: "Starting", reason: "PodTerminating", message: "The previous pod is terminating; a new one follows" };
  if (pod.status?.phase === "Failed") return { phase: "Error", reason: pod.status.reason ?? "PodFailed", message: pod.status.message ?? "The pod failed and is not replaced: recover the sandbox" };
  if (condition(pod, "Ready")?.status === "True") return { phase: "Ready", reason: null, message: null };
  return startingReason(observed, pod);
}

/** Where the sandbox runs; previous node and pod move along when the pod is replaced. */
function identity(previous: Pick<SandboxStatus, "nodeName" | "podName" | "podUid" | "previousNodeName" | "previousPodUid">, pod: ObservedPod | null) {
  const podUid = pod?.metadata?.uid ?? null;
  const nodeName = pod?.spec?.nodeName ?? null;
  const replaced = podUid !== null && previous.podUid !== null && podUid !== previous.podUid;
  return {
    podName: pod?.metadata?.name ?? null,
    podUid,
    nodeName,
    previousPodUid: replaced ? previous.podUid : previous.previousPodUid,
    previousNodeName: replaced ? previous.nodeName : previous.previousNodeName,
  };
}

/**
 * The derived status. `previous` is used only for identity history (which pod and node came
 * before), never for the phase.
 */
export function deriveStatus(observed: Observed, previous: SandboxStatus, now: Date): SandboxStatus {
  const { phase, reason, message } = verdict(observed);
  const ready: Condition = {
    type: "Ready",
    status: phase === "Ready" ? "True" : "False",
    ...(reason ? { reason } : {}),
    ...(message ? { message } : {}),
    lastTransitionTime: now.toISOString(),
  };
  const kept = previous.conditions.find((one) => one.type === "Ready");
  const conditions = [kept && kept.status === ready.status && kept.reason === ready.reason ? { ...ready, lastTransitionTime: kept.lastTransitionTime } : ready];
  return { phase, reason, message, conditions, ...identity(previous, observed.pod), details: previous.details };
}
