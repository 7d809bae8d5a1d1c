import type { Actor } from "../domain/audit.ts";
import { berthLabelKeys, MANAGED_BY_BERTH } from "../domain/labels.ts";
import { problemsFromZodError } from "../domain/problems.ts";
import { defaultCloneName, volumeCloneRequestSchema, type ClonedVolume, type CreatedVolume } from "../domain/volume-actions.ts";
import { defaultSnapshotName, restoreRequestSchema, snapshotRequestSchema, type VolumeSnapshot } from "../domain/volume-snapshot.ts";
import { KubeApiError } from "../kube/kube-errors.ts";
import type { SnapshotResources } from "../kube/snapshot-resources.ts";
import { auditedChange } from "./audited-change.ts";
import { RequestRejectedError, SnapshotNotFoundError, VolumeConflictError, VolumeNotFoundError, VolumeStateError } from "./lifecycle-errors.ts";
import { createVolume, type VolumeCreationDeps } from "./volume-actions.ts";

// A claim's snapshots, as the person asking: listed with their readiness, taken where the claim's
// class has a snapshot driver (and refused, saying so, where it has none), restored into a new
// claim (the create's own checks), deleted by uid; and a claim copied, by its driver's clone or
// through a snapshot.

export interface SnapshotDeps extends VolumeCreationDeps {
  /** As the person asking. */
  snapshots: Pick<SnapshotResources, "readSnapshot" | "listSnapshots" | "createSnapshot" | "deleteSnapshot">;
  now?: () => Date;
}

async function boundClaim(deps: SnapshotDeps, namespace: string, name: string) {
  const claim = await deps.volumes.readClaim(namespace, name);
  if (!claim) throw new VolumeNotFoundError(namespace, name);
  return claim;
}

/** The claim's snapshots, newest first. */
export async function listClaimSnapshots(deps: SnapshotDeps, namespace: string, claim: string): Promise<VolumeSnapshot[]> {
  await boundClaim(deps, namespace, claim);
  const all = await deps.snapshots.listSnapshots(namespace);
  return all.filter((one) => one.sourceClaim === claim).sort((a, b) => (b.createdAt ?? "").localeCompare(a.createdAt ?? "") || a.name.localeCompare(b.name));
}

/**
 * Takes a snapshot of a bound claim, where its class's driver takes snapshots; elsewhere it is
 * refused, naming the class (a snapshot there would only ever fail). It is ready once the driver
 * has cut it: the list says so.
 */
export async function takeSnapshot(deps: SnapshotDeps, namespace: string, claim: string, input: unknown, actor: Actor): Promise<VolumeSnapshot> {
  const parsed = snapshotRequestSchema.safeParse(input ?? {});
  if (!parsed.success) throw new RequestRejectedError(problemsFromZodError(parsed.error));
  const source = await boundClaim(deps, namespace, claim);
  if (source.status?.phase !== "Bound") throw new VolumeStateError(`Claim ${namespace}/${claim} is ${source.status?.phase ?? "Pending"}: only a bound claim has data to snapshot.`);
  const className = source.spec?.storageClassName ?? "";
  const storageClass = (await deps.storageClasses()).find((one) => one.name === className);
  if (!storageClass?.snapshots) {
    throw new VolumeStateError(`Claim ${namespace}/${claim} is of ${className ? `class ${className}${storageClass ? ` (${storageClass.provisioner})` : ""}` : "no class"}, whose driver takes no snapshots (the cluster has no VolumeSnapshotClass for it). Copy its data another way, or move it to a class that has snapshots.`);
  }
  const name = parsed.data.name ?? defaultSnapshotName(claim, (deps.now ?? (() => new Date()))());
  const labels = { [berthLabelKeys(deps.labelPrefix).managedBy]: MANAGED_BY_BERTH };
  return auditedChange(deps.store.audit, { actor, action: "volume.snapshot", targetKind: "PersistentVolumeClaim", namespace, name: claim, details: { snapshot: name } }, async () => {
    try {
      await deps.snapshots.createSnapshot(namespace, name, claim, labels);
    } catch (error) {
      if (error instanceof KubeApiError && error.alreadyExists) throw new VolumeConflictError(`namespace ${namespace} already has a snapshot named ${name}: choose another name`, ["name"]);
      throw error;
    }
    return { namespace, name, sourceClaim: claim, readyToUse: false, restoreSize: null, error: null, snapshotClass: null, createdAt: null, deleting: false };
  });
}

async function snapshotOf(deps: SnapshotDeps, namespace: string, claim: string, snapshot: string) {
  const found = await deps.snapshots.readSnapshot(namespace, snapshot);
  if (!found || found.sourceClaim !== claim) throw new SnapshotNotFoundError(namespace, claim, snapshot);
  return found;
}

/**
 * A new claim holding the snapshot's data: of the source claim's class, at least the snapshot's
 * restore size — through the create, so it is refused as any claim filled from a source would be.
 */
export async function restoreSnapshot(deps: SnapshotDeps, namespace: string, claim: string, snapshot: string, input: unknown, actor: Actor): Promise<CreatedVolume> {
  const parsed = restoreRequestSchema.safeParse(input);
  if (!parsed.success) throw new RequestRejectedError(problemsFromZodError(parsed.error));
  const found = await snapshotOf(deps, namespace, claim, snapshot);
  const source = await deps.volumes.readClaim(namespace, claim);
  const size = parsed.data.size ?? found.restoreSize ?? source?.spec?.resources?.requests?.storage;
  if (!size) throw new VolumeStateError(`VolumeSnapshot ${namespace}/${snapshot} has no restore size yet: wait until it is ready.`);
  const storageClassName = source?.spec?.storageClassName;
  return createVolume(deps, { namespace, name: parsed.data.name, size, retain: parsed.data.retain, ...(storageClassName === undefined ? {} : { storageClassName }), dataSource: { kind: "VolumeSnapshot", name: snapshot } }, actor);
}

/** Deletes the snapshot — that one, by uid — and, with a Delete policy, the data the driver kept for it. */
export async function deleteSnapshot(deps: SnapshotDeps, namespace: string, claim: string, snapshot: string, actor: Actor): Promise<{ name: string; uid: string }> {
  return auditedChange(deps.store.audit, { actor, action: "volume.snapshot-delete", targetKind: "PersistentVolumeClaim", namespace, name: claim, details: { snapshot } }, async () => {
    const found = await snapshotOf(deps, namespace, claim, snapshot);
    try {
      await deps.snapshots.deleteSnapshot(namespace, snapshot, found.uid);
    } catch (error) {
      if (error instanceof KubeApiError && error.conflict) throw new VolumeStateError(`VolumeSnapshot ${namespace}/${snapshot} was replaced by another of the same name since it was looked at; nothing was deleted.`);
      throw error;
    }
    return { name: snapshot, uid: found.uid };
  });
}

/**
 * Copies a bound claim into a new one of its class, as the person: cloned by its CSI driver, or —
 * `via: "snapshot"`, for a driver that takes snapshots but does not clone — through a snapshot
 * taken now and restored at once (the provisioner waits until the snapshot is cut). Each step
 * goes through the checks and the audit of its own endpoint; the snapshot is kept.
 */
export async function cloneClaim(deps: SnapshotDeps, namespace: string, claim: string, input: unknown, actor: Actor): Promise<ClonedVolume> {
  const parsed = volumeCloneRequestSchema.safeParse(input ?? {});
  if (!parsed.success) throw new RequestRejectedError(problemsFromZodError(parsed.error));
  const { via, retain } = parsed.data;
  const source = await boundClaim(deps, namespace, claim);
  const size = parsed.data.size ?? source.status?.capacity?.storage ?? source.spec?.resources?.requests?.storage;
  if (!size) throw new VolumeStateError(`Claim ${namespace}/${claim} says nothing of its size: give the copy's size.`);
  const name = parsed.data.name ?? defaultCloneName(claim);
  if (via === "clone") {
    const made = await createVolume(deps, { namespace, name, size, retain, dataSource: { kind: "PersistentVolumeClaim", name: claim } }, actor);
    return { ...made, via, snapshot: null };
  }
  // A name already taken is refused before a snapshot is taken for nothing.
  if (await deps.volumes.readClaim(namespace, name)) throw new VolumeConflictError(`namespace ${namespace} already has a claim named ${name}: choose another name`, ["name"]);
  // Named as its copy: which snapshot made which claim is plain to see.
  const snapshot = await takeSnapshot(deps, namespace, claim, { name }, actor);
  const storageClassName = source.spec?.storageClassName;
  try {
    const made = await createVolume(
      deps,
      { namespace, name, size, retain, ...(storageClassName === undefined ? {} : { storageClassName }), dataSource: { kind: "VolumeSnapshot", name: snapshot.name } },
      actor,
      { sourceSnapshotMayBeCutting: true },
    );
    return { ...made, via, snapshot: snapshot.name };
  } catch (error) {
    // No copy, so no snapshot for it either.
    const taken = await deps.snapshots.readSnapshot(namespace, snapshot.name).catch(() => null);
    if (taken) await deps.snapshots.deleteSnapshot(namespace, snapshot.name, taken.uid).catch(() => undefined);
    throw error;
  }
}
