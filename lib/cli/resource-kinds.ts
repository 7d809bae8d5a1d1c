import type { MaintenanceRun } from "../domain/maintenance.ts";
import { userLabelsOf } from "../domain/labels.ts";
import type { NodeView } from "../domain/node-view.ts";
import type { SandboxRecord } from "../domain/sandbox-record.ts";
import type { StorageClassView } from "../domain/storage-class.ts";
import type { Volume } from "../domain/volume.ts";
import { ageOf } from "../domain/human-duration.ts";
import type { Printable } from "./printers.ts";

// What `berth get` lists, each with kubectl's names for it and the columns it prints. A resource
// is named the way a person types it: `sandboxes`, `sandbox`, `sb`.

const none = "<none>";

/** As kubectl --show-labels prints them: key=value, comma-separated. */
export const labelsText = (labels: Record<string, string>) => Object.entries(labels).map(([key, value]) => `${key}=${value}`).join(",") || none;

export const SANDBOXES: Printable<SandboxRecord> = {
  kind: "sandbox",
  nameOf: (sandbox) => sandbox.name,
  namespaceOf: (sandbox) => sandbox.namespace,
  columns: [
    { header: "NAME", value: (sandbox) => sandbox.name },
    { header: "PHASE", value: (sandbox, { tone }) => tone(sandbox.phase) },
    { header: "REASON", value: (sandbox) => sandbox.reason ?? none },
    { header: "NODE", value: (sandbox) => sandbox.nodeName ?? none },
    { header: "PROTECTED", value: (sandbox) => (sandbox.details.protection?.protected ? (sandbox.details.protection.drainBlocked ? "drain-blocked" : "yes") : "no") },
    { header: "LAST DISRUPTION", value: (sandbox, { now }) => (sandbox.details.disruption ? `${sandbox.details.disruption.reason} (${ageOf(sandbox.details.disruption.at, now)} ago)` : none) },
    { header: "AGE", value: (sandbox, { now }) => ageOf(sandbox.createdAt, now) },
    { header: "PROFILE", value: (sandbox) => (typeof sandbox.spec.profile === "string" ? sandbox.spec.profile : "generic"), wide: true },
    { header: "WORKSPACE", value: (sandbox) => sandbox.workspaceBackend, wide: true },
    { header: "POD UID", value: (sandbox) => sandbox.podUid ?? none, wide: true },
    { header: "ID", value: (sandbox) => sandbox.id, wide: true },
    { header: "LABELS", value: (sandbox) => labelsText(userLabelsOf(sandbox.spec)), wide: true },
  ],
};

export const VOLUMES: Printable<Volume> = {
  kind: "volume",
  nameOf: (volume) => volume.name,
  namespaceOf: (volume) => volume.namespace,
  columns: [
    { header: "NAME", value: (volume) => volume.name },
    { header: "STATUS", value: (volume, { tone }) => tone(volume.phase) },
    { header: "STATE", value: (volume, { tone }) => tone(volume.state) },
    { header: "OWNERSHIP", value: (volume) => volume.ownership ?? none },
    { header: "CAPACITY", value: (volume) => volume.capacity ?? volume.requested ?? none },
    { header: "STORAGECLASS", value: (volume) => volume.storageClassName ?? none },
    { header: "SANDBOX", value: (volume) => (volume.sandbox ? `${volume.sandbox.name}${volume.sandbox.deleted ? " (deleted)" : ""}` : none) },
    { header: "AGE", value: (volume, { now }) => ageOf(volume.createdAt, now) },
    { header: "ACCESS MODES", value: (volume) => volume.accessModes.join(",") || none, wide: true },
    { header: "VOLUME", value: (volume) => volume.volumeName ?? none, wide: true },
    { header: "PINNED TO", value: (volume) => volume.pinnedToNode ?? none, wide: true },
    { header: "MOUNTED BY", value: (volume) => volume.attachedTo?.pod ?? none, wide: true },
  ],
};

export const NODES: Printable<NodeView> = {
  kind: "node",
  nameOf: (node) => node.name,
  columns: [
    { header: "NAME", value: (node) => node.name },
    { header: "STATUS", value: (node, { tone }) => [tone(node.ready ? "Ready" : "NotReady"), ...(node.cordoned ? ["SchedulingDisabled"] : [])].join(",") },
    { header: "SANDBOXES", value: (node) => String(node.sandboxes.length) },
    { header: "SANDBOX NAMES", value: (node) => node.sandboxes.map((one) => `${one.namespace}/${one.name}`).join(",") || none, wide: true },
  ],
};

export const STORAGE_CLASSES: Printable<StorageClassView> = {
  kind: "storageclass",
  nameOf: (storageClass) => storageClass.name,
  columns: [
    { header: "NAME", value: (storageClass) => `${storageClass.name}${storageClass.isDefault ? " (default)" : ""}` },
    { header: "PROVISIONER", value: (storageClass) => storageClass.provisioner },
    { header: "RECLAIMPOLICY", value: (storageClass) => storageClass.reclaimPolicy },
    { header: "VOLUMEBINDINGMODE", value: (storageClass) => storageClass.volumeBindingMode },
    { header: "ALLOWVOLUMEEXPANSION", value: (storageClass) => String(storageClass.allowVolumeExpansion) },
    { header: "PLACEMENT", value: (storageClass) => storageClass.placement },
    { header: "SNAPSHOTS", value: (storageClass) => String(storageClass.snapshots), wide: true },
    { header: "WHY", value: (storageClass) => storageClass.placementReason, wide: true },
  ],
};

const stepsIn = (run: MaintenanceRun, ...steps: string[]) => run.progress.sandboxes.filter((one) => steps.includes(one.step)).length;

export const MAINTENANCE_RUNS: Printable<MaintenanceRun> = {
  kind: "maintenance",
  nameOf: (run) => run.id,
  columns: [
    { header: "ID", value: (run) => run.id },
    { header: "NODE", value: (run) => run.node },
    { header: "STATE", value: (run, { tone }) => tone(run.state) },
    { header: "DONE", value: (run) => `${stepsIn(run, "Replaced", "WaitingForNode", "Left")}/${run.progress.sandboxes.length}` },
    { header: "BY", value: (run) => run.actor },
    { header: "AGE", value: (run, { now }) => ageOf(run.startedAt, now) },
    { header: "MESSAGE", value: (run) => run.message ?? none, wide: true },
  ],
};
