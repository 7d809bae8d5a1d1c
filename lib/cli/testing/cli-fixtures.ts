import type { Checkpoint } from "../../domain/checkpoint.ts";
import { claimLabels } from "../../domain/labels.ts";
import type { MaintenanceRun } from "../../domain/maintenance.ts";
import type { NodeView } from "../../domain/node-view.ts";
import type { SandboxRecord } from "../../domain/sandbox-record.ts";
import type { StorageClassView } from "../../domain/storage-class.ts";
import type { TimelineEvent } from "../../domain/timeline.ts";
import type { Volume } from "../../domain/volume.ts";

// What the CLI prints, built from small fixed objects at a fixed time, so its golden files
// change only when the printing does.

export const NOW = new Date("2026-12-05T12:00:00Z");
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const MINUTE = 60_000;

export function aSandboxRecord(overrides: Partial<SandboxRecord> = {}): SandboxRecord {
  return {
    id: "6f1c1a52-8d0e-4a51-9d1b-0c7d2b7f3a10",
    name: "agent-1",
    namespace: "team-a",
    spec: { name: "agent-1", profile: "claude" },
    workspaceBackend: "pvc",
    origin: "berth",
    phase: "Ready",
    reason: null,
    message: null,
    conditions: [{ type: "Ready", status: "True", reason: "PodReady", message: "the agent container is running", lastTransitionTime: ago(4 * MINUTE).toISOString() }],
    details: { disruption: null, recovery: null, protection: null, durableState: null, stateMarker: null },
    nodeName: "worker-1",
    podName: "agent-1",
    podUid: "pod-uid-2",
    previousNodeName: null,
    previousPodUid: null,
    provisionedAt: ago(9 * MINUTE),
    createdAt: ago(10 * MINUTE),
    updatedAt: ago(4 * MINUTE),
    deletedAt: null,
    ...overrides,
  };
}

/** A sandbox drained off worker-2 that came back on worker-1, its workspace verified. */
export function aRecoveredSandbox(): SandboxRecord {
  return aSandboxRecord({
    name: "agent-2",
    id: "0b9e8f3c-2a41-4d6e-8f00-5e2c1d4b7a99",
    spec: { name: "agent-2", profile: "generic", labels: { team: "ml", "example.com/owner": "dana" } },
    podName: "agent-2",
    previousNodeName: "worker-2",
    previousPodUid: "pod-uid-1",
    details: {
      disruption: { reason: "NodeDrained", message: "worker-2 was drained for maintenance", at: ago(6 * MINUTE).toISOString(), podUid: "pod-uid-1", nodeName: "worker-2", checkpointTaken: true },
      recovery: { reason: "Recovered", message: "the replacement is Ready on worker-1", startedAt: ago(6 * MINUTE).toISOString(), recoveredAt: ago(5 * MINUTE).toISOString(), durationMs: 41_300, replacementPodUid: "pod-uid-2", replacementNodeName: "worker-1" },
      protection: { wanted: true, protected: true, budgetName: "agent-2", refusingEvictions: false, drainBlocked: false, message: null },
      durableState: { verdict: "restored", why: "the state marker written in pod-uid-1 was read back in pod-uid-2", podUid: "pod-uid-2", checkedAt: ago(5 * MINUTE).toISOString(), neverSurvives: ["/tmp and everything outside the workspace", "running processes"] },
      stateMarker: null,
    },
  });
}

export function aVolume(overrides: Partial<Volume> = {}): Volume {
  return {
    namespace: "team-a",
    name: "workspace-agent-2",
    sandbox: { id: "0b9e8f3c-2a41-4d6e-8f00-5e2c1d4b7a99", name: "agent-2", deleted: false },
    ownership: "retain",
    usage: "workspace",
    phase: "Bound",
    pendingReason: null,
    storageClassName: "portable",
    requested: "5Gi",
    capacity: "5Gi",
    accessModes: ["ReadWriteOnce"],
    volumeName: "pvc-4f2a",
    persistentVolume: { name: "pvc-4f2a", reclaimPolicy: "Delete", phase: "Bound", capacity: "5Gi" },
    pinnedToNode: null,
    attachedTo: { pod: "agent-2", nodeName: "worker-1" },
    usedBytes: 1_288_490_189,
    capacityBytes: 5 * 1024 ** 3,
    usageObservedAt: ago(MINUTE).toISOString(),
    usageUnknownReason: null,
    state: "attached",
    createdAt: ago(10 * MINUTE).toISOString(),
    labels: claimLabels("berth.dev", { id: "0b9e8f3c-2a41-4d6e-8f00-5e2c1d4b7a99", name: "agent-2" }, "retain"),
    ...overrides,
  };
}

export function aNode(overrides: Partial<NodeView> = {}): NodeView {
  return {
    name: "worker-1",
    ready: true,
    cordoned: false,
    labels: { "kubernetes.io/hostname": "worker-1", "topology.kubernetes.io/zone": "zone-a" },
    sandboxes: [{ id: "0b9e8f3c-2a41-4d6e-8f00-5e2c1d4b7a99", name: "agent-2", namespace: "team-a", phase: "Ready", warmPool: null }],
    ...overrides,
  };
}

export function aStorageClass(overrides: Partial<StorageClassView> = {}): StorageClassView {
  return {
    name: "portable",
    provisioner: "csi.example.com",
    isDefault: true,
    volumeBindingMode: "WaitForFirstConsumer",
    reclaimPolicy: "Delete",
    allowVolumeExpansion: true,
    placement: "portable",
    placementReason: "a network-attached CSI driver: the volume follows its pod",
    snapshots: true,
    ...overrides,
  };
}

export function aMaintenanceRun(overrides: Partial<MaintenanceRun> = {}): MaintenanceRun {
  return {
    id: "c3d2b1a0-9f8e-4d7c-8b6a-5f4e3d2c1b0a",
    node: "worker-2",
    state: "Succeeded",
    actor: "paula",
    actorGroups: ["platform"],
    cancelRequested: false,
    attempts: 1,
    runBy: "berth-0",
    options: { parallelism: 4, evictionTimeoutSeconds: 300, replacementTimeoutSeconds: 300 },
    progress: {
      sandboxes: [{ sandboxId: "0b9e8f3c-2a41-4d6e-8f00-5e2c1d4b7a99", name: "agent-2", namespace: "team-a", step: "Replaced", message: "Ready on worker-1", checkpointId: null, outcome: "moves", podUid: "pod-uid-1" }],
      pods: [],
    },
    relaxedBudgets: [],
    message: "1 sandbox moved off worker-2",
    startedAt: ago(7 * MINUTE),
    finishedAt: ago(5 * MINUTE),
    ...overrides,
  };
}

export function aCheckpoint(overrides: Partial<Checkpoint> = {}): Checkpoint {
  return {
    id: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
    sandboxId: "0b9e8f3c-2a41-4d6e-8f00-5e2c1d4b7a99",
    trigger: "Maintenance",
    podUid: "pod-uid-1",
    result: "Succeeded",
    startedAt: ago(7 * MINUTE),
    finishedAt: ago(7 * MINUTE - 2_100),
    durationMs: 2_100,
    hookOutputTail: null,
    markerWritten: true,
    snapshotName: null,
    snapshotReady: null,
    snapshotError: null,
    ...overrides,
  };
}

let serial = 100;
export function anEvent(type: TimelineEvent["type"], reason: string, message: string, minutesAgo: number): TimelineEvent {
  serial++;
  return { id: String(serial), sandboxId: "0b9e8f3c-2a41-4d6e-8f00-5e2c1d4b7a99", type, reason, message, occurredAt: ago(minutesAgo * MINUTE), recordedAt: ago(minutesAgo * MINUTE), data: {} } as TimelineEvent;
}
