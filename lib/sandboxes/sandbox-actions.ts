import type { Actor } from "../domain/audit.ts";
import { recordTimelineEvent } from "../events/record-timeline-event.ts";
import type { SandboxRecord } from "../domain/sandbox-record.ts";
import type { ClusterConnection } from "../kube/cluster-connection.ts";
import { execInPod, type ExecResult } from "../kube/pod-exec.ts";
import { AGENT_CONTAINER_NAME } from "../render/render-sandbox.ts";
import { SandboxNotFoundError } from "../store/index.ts";
import { describeSweep, sweepClaims } from "./claim-sweep.ts";
import type { CreateSandboxDeps } from "./create-sandbox.ts";
import { SandboxStateError } from "./lifecycle-errors.ts";
import { untracked, type OperationsInFlight } from "./operations-in-flight.ts";

// What can be done to a sandbox once it exists: stop and start it (claims kept), run a command
// in it, delete it (sweeping only the claims Berth owns for deletion).

export interface ActionDeps extends CreateSandboxDeps {
  connection: ClusterConnection;
  /** Running checkpoints, in any replica: while one runs, exec is refused. */
  checkpointing?: Pick<OperationsInFlight, "run" | "anywhere">;
}

export async function liveRecord(deps: ActionDeps, id: string): Promise<SandboxRecord> {
  const record = await deps.store.sandboxes.getSandbox(id);
  if (!record || record.deletedAt) throw new SandboxNotFoundError(id);
  return record;
}

export async function setSandboxRunning(deps: ActionDeps, id: string, running: boolean, actor: Actor): Promise<SandboxRecord> {
  const record = await liveRecord(deps, id);
  await deps.resources.setRunning(record.namespace, record.name, running);
  await recordTimelineEvent(deps.store.timeline, {
    sandboxId: id,
    type: "Lifecycle",
    reason: running ? "StartRequested" : "StopRequested",
    message: `${running ? "Start requested: the sandbox gets a pod again, with its workspace claims" : "Stop requested: the pod is removed, the workspace claims are kept"} (by ${actor.username})`,
    occurredAt: new Date(),
    data: { by: actor.username },
  }, { about: record });
  await deps.store.audit.recordChange({ actor, action: running ? "sandbox.start" : "sandbox.stop", targetKind: "Sandbox", targetId: id, outcome: "Succeeded" });
  return record;
}

/**
 * Deletes the Sandbox (its pod and template claims go with it through garbage collection) and
 * sweeps Berth's `delete` claims by label, also when the Sandbox was already gone. `retain` and
 * `existing` claims are never touched. The record and its timeline stay, marked deleted.
 */
export async function deleteSandbox(deps: ActionDeps, id: string, actor: Actor): Promise<{ record: SandboxRecord; removedClaims: string[]; keptClaims: string[] }> {
  return (deps.inFlight ?? untracked).run(id, () => deleteLiveSandbox(deps, id, actor));
}

async function deleteLiveSandbox(deps: ActionDeps, id: string, actor: Actor): Promise<{ record: SandboxRecord; removedClaims: string[]; keptClaims: string[] }> {
  const record = await liveRecord(deps, id);
  // A sandbox handed to a claim is the claim's: deleted alone, the claim would start another.
  const claim = record.details.handout?.claim;
  if (claim) await deps.resources.deleteSandboxClaim(record.namespace, claim);
  await deps.resources.deleteSandbox(record.namespace, record.name);
  const { removedClaims, keptClaims } = await sweepClaims(deps.resources, deps.defaults.labelPrefix, record, "ownedForDeletion");
  const deleted = await deps.store.sandboxes.markDeleted(id, new Date());
  deps.live?.put(deleted);
  await recordTimelineEvent(deps.store.timeline, {
    sandboxId: id,
    type: "Lifecycle",
    reason: "Deleted",
    message: `Sandbox deleted by ${actor.username}${claim ? ` with its claim ${claim}` : ""}; ${describeSweep({ removedClaims, keptClaims })}`,
    occurredAt: new Date(),
    data: { removedClaims, keptClaims, by: actor.username },
  }, { about: record });
  await deps.store.audit.recordChange({ actor, action: "sandbox.delete", targetKind: "Sandbox", targetId: id, outcome: "Succeeded", details: { removedClaims, keptClaims } });
  return { record: deleted, removedClaims, keptClaims };
}

/** Runs a command in the agent container; refused while the sandbox has no running pod. */
export async function execInSandbox(deps: ActionDeps, id: string, command: string[], timeoutSeconds: number, actor: Actor): Promise<ExecResult> {
  const record = await liveRecord(deps, id);
  if (await deps.checkpointing?.anywhere(id)) throw new SandboxStateError(`Sandbox ${record.namespace}/${record.name} is checkpointing: new exec sessions are refused until the checkpoint ends. Try again in a moment.`);
  const pod = await deps.resources.readPod(record.namespace, record.name);
  if (!pod || pod.status?.phase !== "Running" || pod.metadata?.deletionTimestamp) {
    throw new SandboxStateError(`Sandbox ${record.namespace}/${record.name} has no running pod (${pod ? `pod is ${pod.metadata?.deletionTimestamp ? "terminating" : pod.status?.phase}` : "no pod"}): start it or wait until it is Ready.`);
  }
  const result = await execInPod(deps.connection, { namespace: record.namespace, pod: record.name, container: AGENT_CONTAINER_NAME }, command, timeoutSeconds);
  await deps.store.audit.recordChange({ actor, action: "sandbox.exec", targetKind: "Sandbox", targetId: id, outcome: "Succeeded", details: { command, exitCode: result.exitCode } });
  return result;
}

/**
 * Recovers a sandbox whose pod ended Failed (kubelet pressure eviction: agent-sandbox does not
 * replace it) or is stuck failing: the pod is deleted so the controller makes a new one with the
 * same claims. Refused when there is nothing to recover.
 */
export async function recoverSandbox(deps: ActionDeps, id: string, actor: Actor): Promise<SandboxRecord> {
  const record = await liveRecord(deps, id);
  const pod = await deps.resources.readPod(record.namespace, record.name);
  const crashing = pod?.status?.containerStatuses?.some((status) => status.state?.waiting?.reason === "CrashLoopBackOff") ?? false;
  if (!pod || (pod.status?.phase !== "Failed" && !crashing)) {
    throw new SandboxStateError(`Sandbox ${record.namespace}/${record.name} has nothing to recover: its pod is ${pod ? pod.status?.phase : "not there (it may be starting or stopped)"}.`);
  }
  await deps.resources.deletePod(record.namespace, record.name, 0);
  await recordTimelineEvent(deps.store.timeline, {
    sandboxId: id,
    type: "Recovery",
    reason: "RecoveryRequested",
    message: `The ${pod.status?.phase === "Failed" ? `failed pod (${pod.status?.reason ?? "Failed"})` : "crashing pod"} was deleted (by ${actor.username}) so the controller creates a new one with the same claims`,
    occurredAt: new Date(),
    data: { podUid: pod.metadata?.uid, podReason: pod.status?.reason ?? null, by: actor.username },
  }, { about: record });
  await deps.store.audit.recordChange({ actor, action: "sandbox.recover", targetKind: "Sandbox", targetId: id, outcome: "Succeeded" });
  return record;
}
