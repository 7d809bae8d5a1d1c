import type { CoreV1Event, V1PersistentVolume, V1PersistentVolumeClaim, V1Pod } from "@kubernetes/client-node";
import { pinnedNodeOf } from "../kube/volume-topology.ts";
import { eventTime } from "./event-time.ts";
import { berthLabelKeys, MANAGED_BY_BERTH } from "../domain/labels.ts";
import { selects, type LabelSelector } from "../domain/label-selector.ts";
import type { Page } from "../domain/sandbox-record.ts";
import type { Volume, VolumeState } from "../domain/volume.ts";
import { NOT_MEASURED, NOT_MOUNTED, unknownUsage } from "../domain/volume-usage.ts";
import { claimOwnershipSchema, type ClaimOwnership } from "../domain/workspace.ts";
import { pageAfterKey } from "./key-paging.ts";

// The claims Berth knows, as a person managing storage wants to see them: whose, kept how,
// bound or why not, where it may run, and whether anything uses it. Pure: a projection of what
// the reconciler's watches hold and what the store says about the sandboxes.

export interface SandboxRef {
  id: string;
  name: string;
  deleted: boolean;
}

export interface VolumeInputs {
  claims: V1PersistentVolumeClaim[];
  /** Sandbox pods (the ones that may mount a claim Berth knows). */
  pods: V1Pod[];
  persistentVolumes: V1PersistentVolume[];
  /** Events about claims, any order. */
  claimEvents: CoreV1Event[];
  labelPrefix: string;
  /** The sandbox with this id, live or deleted; null when Berth has no record of it. */
  sandboxById: (id: string) => SandboxRef | null;
  /** The live sandbox with this name in this namespace. */
  liveSandboxByName: (namespace: string, name: string) => SandboxRef | null;
}

const key = (namespace: string | undefined, name: string | undefined) => `${namespace}/${name}`;

function mountsByClaim(pods: V1Pod[]): Map<string, { pod: V1Pod; volumeName: string }> {
  const mounts = new Map<string, { pod: V1Pod; volumeName: string }>();
  for (const pod of pods) {
    if (["Succeeded", "Failed"].includes(pod.status?.phase ?? "")) continue;
    for (const volume of pod.spec?.volumes ?? []) {
      if (volume.persistentVolumeClaim) mounts.set(key(pod.metadata?.namespace, volume.persistentVolumeClaim.claimName), { pod, volumeName: volume.name });
    }
  }
  return mounts;
}


/** Who a claim belongs to and how it is kept; null when it is not Berth's business. */
function belonging(claim: V1PersistentVolumeClaim, mount: { pod: V1Pod } | undefined, inputs: VolumeInputs): { sandbox: SandboxRef | null; ownership: ClaimOwnership; labelled: boolean } | null {
  const keys = berthLabelKeys(inputs.labelPrefix);
  const namespace = claim.metadata?.namespace ?? "";
  const labelledId = claim.metadata?.labels?.[keys.sandboxId];
  if (labelledId) {
    const ownership = claimOwnershipSchema.safeParse(claim.metadata?.labels?.[keys.claimOwnership]);
    return { sandbox: inputs.sandboxById(labelledId), ownership: ownership.success ? ownership.data : "retain", labelled: true };
  }
  // Made on the Volumes page, for no sandbox yet: Berth's, kept as its label says.
  if (claim.metadata?.labels?.[keys.managedBy] === MANAGED_BY_BERTH) {
    const ownership = claimOwnershipSchema.safeParse(claim.metadata.labels[keys.claimOwnership]);
    if (ownership.success && (ownership.data === "retain" || ownership.data === "existing")) {
      const sandbox = mount ? inputs.liveSandboxByName(namespace, mount.pod.metadata?.name ?? "") : null;
      return { sandbox, ownership: ownership.data, labelled: false };
    }
  }
  const controller = claim.metadata?.ownerReferences?.find((owner) => owner.kind === "Sandbox" && owner.controller);
  if (controller) {
    const sandbox = inputs.liveSandboxByName(namespace, controller.name);
    return sandbox ? { sandbox, ownership: "template", labelled: false } : null;
  }
  if (mount) {
    const sandbox = inputs.liveSandboxByName(namespace, mount.pod.metadata?.name ?? "");
    return sandbox ? { sandbox, ownership: "existing", labelled: false } : null;
  }
  return null;
}

function stateOf(attached: boolean, labelled: boolean, sandbox: SandboxRef | null, ownership: ClaimOwnership): VolumeState {
  if (attached) return "attached";
  if ((labelled && sandbox === null) || (ownership === "delete" && sandbox?.deleted)) return "orphaned";
  return "detached";
}

export function describeVolumes(inputs: VolumeInputs): Volume[] {
  const mounts = mountsByClaim(inputs.pods);
  const volumesByName = new Map(inputs.persistentVolumes.map((volume) => [volume.metadata?.name, volume]));
  const volumes: Volume[] = [];
  for (const claim of inputs.claims) {
    const namespace = claim.metadata?.namespace ?? "";
    const name = claim.metadata?.name ?? "";
    const mount = mounts.get(key(namespace, name));
    const owner = belonging(claim, mount, inputs);
    if (!owner) continue;
    const phase = claim.metadata?.deletionTimestamp ? "Terminating" : (claim.status?.phase ?? "Pending");
    const why = phase === "Pending"
      ? inputs.claimEvents.filter((event) => event.involvedObject?.namespace === namespace && event.involvedObject.name === name).sort((a, b) => eventTime(a) - eventTime(b)).at(-1)
      : undefined;
    const volumeName = claim.spec?.volumeName || null;
    const bound = volumeName ? volumesByName.get(volumeName) : undefined;
    volumes.push({
      namespace,
      name,
      sandbox: owner.sandbox,
      ownership: owner.ownership,
      usage: mount?.volumeName === "workspace" || (owner.sandbox && name === `workspace-${owner.sandbox.name}`) ? "workspace" : "volume",
      phase,
      pendingReason: why?.message ?? null,
      storageClassName: claim.spec?.storageClassName ?? null,
      requested: claim.spec?.resources?.requests?.storage ?? null,
      capacity: claim.status?.capacity?.storage ?? null,
      accessModes: claim.spec?.accessModes ?? [],
      volumeName,
      persistentVolume: bound
        ? { name: volumeName!, reclaimPolicy: bound.spec?.persistentVolumeReclaimPolicy ?? "Delete", phase: bound.status?.phase ?? null, capacity: bound.spec?.capacity?.storage ?? null }
        : null,
      pinnedToNode: pinnedNodeOf(bound),
      attachedTo: mount ? { pod: mount.pod.metadata?.name ?? "", nodeName: mount.pod.spec?.nodeName ?? null } : null,
      // Measured by the node's kubelet, asked when a page of claims is served (volume-usage.ts).
      ...unknownUsage(mount ? NOT_MEASURED : NOT_MOUNTED),
      state: stateOf(Boolean(mount), owner.labelled, owner.sandbox, owner.ownership),
      createdAt: claim.metadata?.creationTimestamp ? new Date(claim.metadata.creationTimestamp as unknown as string).toISOString() : null,
      labels: { ...claim.metadata?.labels },
    });
  }
  return volumes.sort((a, b) => key(a.namespace, a.name).localeCompare(key(b.namespace, b.name)));
}

const CURSOR_SHAPE = /^[a-z0-9][a-z0-9.-]*\/[a-z0-9][a-z0-9.-]*$/;

/** One page of volumes (ordered by namespace and name), optionally of one namespace and those a label selector picks. */
export function pageOfVolumes(volumes: Volume[], request: { limit: number; cursor?: string; namespace?: string; labelSelector?: LabelSelector }): Page<Volume> {
  const { namespace, labelSelector = [] } = request;
  const all = volumes.filter((volume) => (!namespace || volume.namespace === namespace) && selects(labelSelector, volume.labels));
  return pageAfterKey(all, (volume) => key(volume.namespace, volume.name), CURSOR_SHAPE, request);
}
