import type { SandboxPhase } from "../domain/sandbox-status.ts";
import { podCondition, type Observed, type ObservedEvent, type ObservedPod } from "./observed.ts";

// Why a pod that exists is not Ready yet. The same facts hold up a first start and a
// replacement after a disruption; the caller decides which of the two it is.

export interface Verdict {
  phase: SandboxPhase;
  reason: string | null;
  message: string | null;
}

function lastEvent(observed: Observed, kind: string, name: string | undefined, reasons: string[]): ObservedEvent | undefined {
  return observed.events.filter((event) => event.involvedObject?.kind === kind && event.involvedObject.name === name && reasons.includes(event.reason ?? "")).at(-1);
}

/** Why a pod that exists is not Ready yet, in the order a person would want to know it. */
export function startingReason(observed: Observed, pod: ObservedPod): Verdict {
  const pendingClaim = observed.claims.find((claim) => claim.status?.phase !== "Bound");
  if (pendingClaim) {
    const why = lastEvent(observed, "PersistentVolumeClaim", pendingClaim.metadata?.name, ["FailedBinding", "ProvisioningFailed", "WaitForFirstConsumer", "ExternalProvisioning", "Provisioning"]);
    return { phase: "Provisioning", reason: "ClaimPending", message: `Claim ${pendingClaim.metadata?.name} is Pending${why?.message ? `: ${why.message}` : ""}` };
  }
  const scheduled = podCondition(pod, "PodScheduled");
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

/** A pod that ended Failed is not replaced by the controller: someone has to recover the sandbox. */
export function failedPodVerdict(pod: ObservedPod): Verdict {
  return { phase: "Error", reason: pod.status?.reason ?? "PodFailed", message: pod.status?.message ?? "The pod failed and is not replaced: recover the sandbox" };
}
