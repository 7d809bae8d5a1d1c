import type { V1Pod } from "@kubernetes/client-node";
import { readDisruptionDetails } from "../disruption/disruption-details.ts";
import type { SandboxRecord } from "../domain/sandbox-record.ts";
import type { SandboxStatus } from "../domain/sandbox-status.ts";
import { recordTimelineEvent } from "../events/record-timeline-event.ts";
import { KubeApiError } from "../kube/kube-errors.ts";
import type { SandboxResources } from "../kube/sandbox-resources.ts";
import type { Store, WriterFence } from "../store/index.ts";
import { storedDisruptionPolicy } from "../domain/stored-spec.ts";

// agent-sandbox does not replace a pod that ended Failed (the kubelet evicted it under node
// pressure), so such a sandbox would stay down. Unless its policy says otherwise, Berth deletes
// the failed pod — that pod and no other, by uid — and the controller makes a new one.

/** The policy switch as the submitted spec has it; on unless turned off. */
function autoRecoveryAllowed(record: SandboxRecord): boolean {
  return record.origin === "berth" && storedDisruptionPolicy(record.spec).autoRecoverFailedPods;
}

/** True when it deleted the failed pod. */
export async function recoverFailedPod(deps: { resources: SandboxResources; store: Store; now: () => Date; fence?: WriterFence }, record: SandboxRecord, status: SandboxStatus, pod: V1Pod | null): Promise<boolean> {
  const history = readDisruptionDetails(status.details);
  const uid = pod?.metadata?.uid;
  if (history.recovery?.reason !== "NotReplaced" || pod?.status?.phase !== "Failed" || !uid || pod.metadata?.deletionTimestamp) return false;
  if (!autoRecoveryAllowed(record)) return false;
  try {
    await deps.resources.deletePod(record.namespace, record.name, 0, uid);
  } catch (error) {
    // 409: the precondition failed — that pod is gone and another has its name. Nothing to do.
    if (error instanceof KubeApiError && error.conflict) return false;
    throw error;
  }
  await recordTimelineEvent(deps.store.timeline, {
    sandboxId: record.id,
    type: "Recovery",
    reason: "AutoRecovery",
    message: `Pod ${uid} ended Failed (${pod.status?.reason ?? "Failed"}${pod.status?.message ? `: ${pod.status.message}` : ""}) and agent-sandbox does not replace it; Berth deleted it so the controller makes a new one with the same claims`,
    occurredAt: deps.now(),
    data: { podUid: uid, podReason: pod.status?.reason ?? null, nodeName: pod.spec?.nodeName ?? null },
  }, { fence: deps.fence, about: record });
  return true;
}
