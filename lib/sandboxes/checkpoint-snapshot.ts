import type { Checkpoint } from "../domain/checkpoint.ts";
import { sandboxLabels } from "../domain/labels.ts";
import type { SandboxRecord } from "../domain/sandbox-record.ts";
import { recordTimelineEvent } from "../events/record-timeline-event.ts";
import { snapshotResources, type VolumeSnapshotState } from "../kube/snapshot-resources.ts";
import type { ActionDeps } from "./sandbox-actions.ts";
import { storedWorkspace } from "../domain/stored-spec.ts";

// The optional last step of a checkpoint: a CSI VolumeSnapshot of the workspace claim. Its
// readiness — or the snapshotter's error, the moment it reports one — goes on the checkpoint and
// the timeline; storage that cannot snapshot says so at once rather than after a timeout.

const WAIT_FOR_READY_MS = 15_000;
const POLL_MS = 200;

/** The claim a pvc workspace is on: the one named in the spec, else the controller's or Berth's default name. */
function workspaceClaimName(record: SandboxRecord): string {
  const claim = storedWorkspace(record.spec).claim;
  return claim?.claimName ?? `workspace-${record.name}`;
}

async function settled(read: () => Promise<VolumeSnapshotState>): Promise<VolumeSnapshotState> {
  const deadline = Date.now() + WAIT_FOR_READY_MS;
  for (;;) {
    const state = await read();
    if (state.readyToUse || state.error || Date.now() >= deadline) return state;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

export async function snapshotWorkspace(deps: ActionDeps, record: SandboxRecord, checkpoint: Checkpoint): Promise<Checkpoint> {
  const now = deps.now ?? (() => new Date());
  const snapshots = snapshotResources(deps.connection);
  const name = `${record.name}-checkpoint-${checkpoint.id.slice(0, 8)}`;
  const claimName = workspaceClaimName(record);
  let state: VolumeSnapshotState;
  try {
    await snapshots.createSnapshot(record.namespace, name, claimName, sandboxLabels(deps.defaults.labelPrefix, record.id));
    state = await settled(() => snapshots.snapshotState(record.namespace, name));
  } catch (error) {
    state = { readyToUse: false, error: `the VolumeSnapshot could not be made: ${(error as Error).message}` };
  }
  const updated = await deps.store.checkpoints.recordSnapshot(checkpoint.id, { name, ready: state.readyToUse, error: state.error });
  await recordTimelineEvent(deps.store.timeline, {
    sandboxId: record.id,
    type: "Checkpoint",
    reason: state.readyToUse ? "SnapshotReady" : state.error ? "SnapshotFailed" : "SnapshotPending",
    message: state.readyToUse
      ? `VolumeSnapshot ${name} of claim ${claimName} is ready to use`
      : state.error
        ? `VolumeSnapshot ${name} of claim ${claimName} failed: ${state.error}`
        : `VolumeSnapshot ${name} of claim ${claimName} is not ready after ${WAIT_FOR_READY_MS / 1000} s; its status in the cluster says when it is`,
    occurredAt: now(),
    data: { checkpointId: checkpoint.id, snapshotName: name, claimName, readyToUse: state.readyToUse, error: state.error },
  }, { about: record });
  return updated;
}
