import type { Actor } from "../domain/audit.ts";
import type { Checkpoint } from "../domain/checkpoint.ts";
import type { DisruptionPolicy } from "../domain/disruption-policy.ts";
import type { SandboxRecord } from "../domain/sandbox-record.ts";
import { recordTimelineEvent } from "../events/record-timeline-event.ts";
import { ExecTimeoutError, execInPod } from "../kube/pod-exec.ts";
import { AGENT_CONTAINER_NAME } from "../render/render-sandbox.ts";
import { SandboxStateError } from "./lifecycle-errors.ts";
import { untracked } from "./operations-in-flight.ts";
import { liveRecord, type ActionDeps } from "./sandbox-actions.ts";
import { snapshotWorkspace } from "./checkpoint-snapshot.ts";
import { writeStateMarker } from "./state-marker.ts";
import { storedDisruptionPolicy, storedWorkspace } from "../domain/stored-spec.ts";

// A checkpoint: the sandbox's own hook saves its work (run through exec within the checkpoint
// grace period), the workspace is flushed, and the state marker is written so that a later
// recovery can say whether this state came back; optionally a VolumeSnapshot of the workspace
// follows. While it runs the sandbox shows Checkpointing
// and refuses new exec sessions. Manual, or the first step of maintenance.

const OUTPUT_TAIL_CHARS = 2_000;
const FLUSH_TIMEOUT_SECONDS = 10;

const policyOf = (record: SandboxRecord) => storedDisruptionPolicy(record.spec);

/** The hook's deadline: its own grace period, else the pod's termination grace (what a drain would allow). */
const graceSecondsOf = (policy: DisruptionPolicy) => policy.checkpointGracePeriodSeconds ?? policy.terminationGracePeriodSeconds;

export async function checkpointSandbox(deps: ActionDeps, id: string, trigger: Checkpoint["trigger"], actor: Actor): Promise<Checkpoint> {
  const record = await liveRecord(deps, id);
  if (await deps.checkpointing?.anywhere(id)) throw new SandboxStateError(`Sandbox ${record.namespace}/${record.name} is already checkpointing: wait for that checkpoint to end.`);
  const pod = await deps.resources.readPod(record.namespace, record.name);
  if (!pod || pod.status?.phase !== "Running" || pod.metadata?.deletionTimestamp) {
    throw new SandboxStateError(`Sandbox ${record.namespace}/${record.name} has no running pod to checkpoint (${pod ? `pod is ${pod.metadata?.deletionTimestamp ? "terminating" : pod.status?.phase}` : "no pod"}): start it or wait until it is Ready.`);
  }
  return (deps.checkpointing ?? untracked).run(id, () => runCheckpoint(deps, record, pod.metadata?.uid ?? "", trigger, actor));
}

async function runCheckpoint(deps: ActionDeps, record: SandboxRecord, podUid: string, trigger: Checkpoint["trigger"], actor: Actor): Promise<Checkpoint> {
  const now = deps.now ?? (() => new Date());
  const policy = policyOf(record);
  const graceSeconds = graceSecondsOf(policy);
  const target = { namespace: record.namespace, pod: record.name, container: AGENT_CONTAINER_NAME };
  const started = await deps.store.checkpoints.startCheckpoint({ sandboxId: record.id, trigger, startedAt: now(), podUid: podUid || null });
  await recordTimelineEvent(deps.store.timeline, {
    sandboxId: record.id,
    type: "Checkpoint",
    reason: "CheckpointStarted",
    message: `${trigger} checkpoint started: ${policy.checkpointHook ? `running the hook \`${policy.checkpointHook.join(" ")}\` within ${graceSeconds} s` : "no hook is set, so only the flush and the marker"}; new exec sessions are refused until it ends`,
    occurredAt: now(),
    data: { checkpointId: started.id, trigger, graceSeconds },
  }, { about: record });

  let result: "Succeeded" | "Failed" | "TimedOut" = "Succeeded";
  let tail: string | null = null;
  let why = "";
  if (policy.checkpointHook) {
    try {
      const hook = await execInPod(deps.connection, target, policy.checkpointHook, graceSeconds);
      tail = `${hook.stdout}${hook.stderr}`.slice(-OUTPUT_TAIL_CHARS) || null;
      if (hook.exitCode !== 0) [result, why] = ["Failed", `the hook exited with ${hook.exitCode}`];
    } catch (error) {
      if (error instanceof ExecTimeoutError) [result, why] = ["TimedOut", `the hook did not finish within ${graceSeconds} s`];
      else [result, why] = ["Failed", `the hook could not be run: ${(error as Error).message}`];
    }
  }
  let markerWritten = false;
  if (result === "Succeeded") {
    try {
      const flush = await execInPod(deps.connection, target, ["sync"], FLUSH_TIMEOUT_SECONDS);
      if (flush.exitCode !== 0) throw new Error(`sync exited with ${flush.exitCode}`);
      await writeStateMarker(deps.connection, { ...target, mountPath: workspaceMountPath(deps, record) }, { sandboxId: record.id, podUid, writtenAt: now().toISOString(), writtenOn: "checkpoint" });
      markerWritten = true;
    } catch (error) {
      [result, why] = ["Failed", `flushing the workspace or writing the marker failed: ${(error as Error).message}`];
    }
  }

  const finished = await deps.store.checkpoints.finishCheckpoint(started.id, { result, hookOutputTail: tail, markerWritten }, now());
  await recordTimelineEvent(deps.store.timeline, {
    sandboxId: record.id,
    type: "Checkpoint",
    reason: `Checkpoint${result}`,
    message: result === "Succeeded" ? `Checkpoint succeeded in ${finished.durationMs} ms: ${policy.checkpointHook ? "the hook ran, " : "no hook is set; "}the workspace was flushed and the marker written` : `Checkpoint ${result === "TimedOut" ? "timed out" : "failed"} after ${finished.durationMs} ms: ${why}`,
    occurredAt: now(),
    data: { checkpointId: finished.id, trigger, result, durationMs: finished.durationMs, hookOutputTail: tail, markerWritten },
  }, { about: record });
  await deps.store.audit.recordChange({ actor, action: "sandbox.checkpoint", targetKind: "Sandbox", targetId: record.id, outcome: result === "Succeeded" ? "Succeeded" : "Failed", details: { checkpointId: finished.id, result } });
  if (result === "Succeeded" && policy.snapshotOnCheckpoint && record.workspaceBackend === "pvc") return snapshotWorkspace(deps, record, finished);
  return finished;
}

function workspaceMountPath(deps: ActionDeps, record: SandboxRecord): string {
  return storedWorkspace(record.spec).mountPath ?? deps.defaults.workspaceMountPath;
}
