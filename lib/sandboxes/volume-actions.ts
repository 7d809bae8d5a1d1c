import type { V1Pod } from "@kubernetes/client-node";
import type { Actor } from "../domain/audit.ts";
import type { StorageClassView } from "../domain/storage-class.ts";
import type { Volume } from "../domain/volume.ts";
import { expansionProblem, reclaimPolicyChangeSchema, volumeCreationSchema, volumeExpansionSchema, type CreatedVolume, type ReclaimPolicyChanged, type VolumeCreation } from "../domain/volume-actions.ts";
import { parseQuantity } from "../domain/quantity.ts";
import { renderStandaloneClaim } from "../render/standalone-claim.ts";
import { problemsFromZodError } from "../domain/problems.ts";
import { KubeApiError } from "../kube/kube-errors.ts";
import type { SnapshotResources } from "../kube/snapshot-resources.ts";
import type { HelperPods } from "../kube/helper-pods.ts";
import type { VolumeResources } from "../kube/volume-resources.ts";
import { volumeReaderKeys, VOLUME_READER_HELPER } from "../render/volume-reader-pod.ts";
import type { Store } from "../store/index.ts";
import { auditedChange } from "./audited-change.ts";
import { claimUsers } from "./claim-users.ts";
import { notManagedProblem } from "./create-sandbox.ts";
import { PersistentVolumeNotFoundError, RequestRejectedError, VolumeConflictError, VolumeInUseError, VolumeNotFoundError, VolumeStateError } from "./lifecycle-errors.ts";

// The Volumes page's actions, as the person asking: make a claim (empty, restored or cloned);
// and on a claim Berth knows, delete it once nothing uses it, grow it where its StorageClass
// allows, keep its volume after it or not. The changes to what exists re-read the cluster first
// (the list the page showed may be a moment old) and write with a precondition, so an object
// recreated under the same name, or changed meanwhile, is never the one touched. All are audited,
// refusals as well.

export interface VolumeActionDeps {
  store: Pick<Store, "audit">;
  volumes: VolumeResources;
  /** The claims Berth knows, as GET /api/v1/volumes lists them. */
  known: () => Promise<Volume[]>;
  /** Berth's helper pods that read claims, as the same person: a claim's delete takes its readers with it. */
  readers: { pods: HelperPods; labelPrefix: string };
}

export interface VolumeCreationDeps {
  store: Pick<Store, "audit">;
  /** As the person asking. */
  volumes: VolumeResources;
  /** As the person asking. */
  snapshots: Pick<SnapshotResources, "readSnapshot">;
  /** The cluster's classes, read as Berth (a developer may not be allowed to read them). */
  storageClasses: () => Promise<StorageClassView[]>;
  labelPrefix: string;
  /** Where a claim goes when the request names no namespace: the gateway's default sandbox namespace. */
  defaultNamespace: string;
  /** The namespaces Berth manages; a claim goes nowhere else. Absent: every namespace. */
  managedNamespaces?: () => Promise<{ names: string[]; howToAdd: string }>;
}

async function knownClaim(deps: VolumeActionDeps, namespace: string, name: string) {
  const volume = (await deps.known()).find((one) => one.namespace === namespace && one.name === name);
  const claim = volume ? await deps.volumes.readClaim(namespace, name) : null;
  if (!volume || !claim?.metadata?.uid) throw new VolumeNotFoundError(namespace, name);
  return { volume, claim, uid: claim.metadata.uid };
}

const fieldProblem = (path: (string | number)[], message: string, code = "custom") => new RequestRejectedError([{ code, path, message }]);

export interface CreationOptions {
  /** A snapshot Berth has just taken for this claim may still be being cut: the provisioner waits for it. */
  sourceSnapshotMayBeCutting?: boolean;
}

/** The request's class, or — for a clone that names none — the source claim's: CSI clones only within one class. */
async function checkedSource(deps: VolumeCreationDeps, request: VolumeCreation, namespace: string, options: CreationOptions): Promise<VolumeCreation> {
  const source = request.dataSource;
  if (!source) return request;
  const requested = parseQuantity(request.size)!;
  if (source.kind === "VolumeSnapshot") {
    const snapshot = await deps.snapshots.readSnapshot(namespace, source.name);
    if (!snapshot) throw fieldProblem(["dataSource", "name"], `namespace ${namespace} has no VolumeSnapshot named ${source.name}: name a snapshot of this namespace`, "volume.source-missing");
    if (!snapshot.readyToUse && !options.sourceSnapshotMayBeCutting) throw new VolumeStateError(`VolumeSnapshot ${namespace}/${source.name} is not ready to restore yet${snapshot.error ? ` (${snapshot.error})` : ""}: wait until it is ready, or pick another.`);
    const smallest = snapshot.restoreSize === null ? null : parseQuantity(snapshot.restoreSize);
    if (smallest !== null && requested < smallest) throw fieldProblem(["size"], `size must be at least ${snapshot.restoreSize}, the size of the volume snapshot ${source.name} restores`, "volume.smaller-than-source");
    return request;
  }
  const claim = await deps.volumes.readClaim(namespace, source.name);
  if (!claim) throw fieldProblem(["dataSource", "name"], `namespace ${namespace} has no claim named ${source.name}: a clone copies a claim of the same namespace`, "volume.source-missing");
  if (claim.status?.phase !== "Bound" || claim.metadata?.deletionTimestamp) {
    throw new VolumeStateError(`Claim ${namespace}/${source.name} is ${claim.metadata?.deletionTimestamp ? "being deleted" : (claim.status?.phase ?? "Pending")}: only a bound claim can be cloned.`);
  }
  const sourceSize = claim.status?.capacity?.storage ?? claim.spec?.resources?.requests?.storage ?? null;
  const smallest = sourceSize === null ? null : parseQuantity(sourceSize);
  if (smallest !== null && requested < smallest) throw fieldProblem(["size"], `size must be at least ${sourceSize}, the size of claim ${source.name} it clones`, "volume.smaller-than-source");
  const sourceClass = claim.spec?.storageClassName ?? "";
  if (request.storageClassName === undefined) return { ...request, storageClassName: sourceClass };
  if (request.storageClassName !== sourceClass) {
    throw fieldProblem(["storageClassName"], `a clone is made in its source's class: claim ${source.name} is of ${sourceClass === "" ? "no class" : `class ${sourceClass}`}; choose that class, or leave the class unset`, "volume.clone-other-class");
  }
  return request;
}

/**
 * The class the claim ends up with must exist — and, for a claim filled from a source, be one
 * whose CSI driver fills it. A provisioner that is not (local-path, static volumes) ignores the
 * source and hands out an empty volume: the worst outcome for someone restoring their work. Berth
 * knows a driver fills from sources when the cluster has a VolumeSnapshotClass for it.
 */
function checkedClass(request: VolumeCreation, classes: StorageClassView[]): void {
  const named = request.storageClassName;
  const target = named === undefined ? classes.find((one) => one.isDefault) : named === "" ? undefined : classes.find((one) => one.name === named);
  if (named && !target) {
    const names = classes.map((one) => one.name);
    throw fieldProblem(["storageClassName"], `the cluster has no StorageClass named ${named}: ${names.length > 0 ? `choose one of ${names.join(", ")}` : "it has no classes; leave the class unset, or \"\" for a pre-provisioned volume"}`, "volume.class-missing");
  }
  if (!request.dataSource || target?.snapshots) return;
  const what = request.dataSource.kind === "VolumeSnapshot" ? "restore a snapshot" : "clone a claim";
  const which = target ? `class ${target.name} (${target.provisioner})` : named === "" ? "no class (a pre-provisioned volume)" : "the cluster's default class (it has none)";
  const fillable = classes.filter((one) => one.snapshots).map((one) => one.name);
  throw fieldProblem(
    ["storageClassName"],
    `cannot ${what} into ${which}: its provisioner does not fill a new volume from a source, so the claim would be empty${fillable.length > 0 ? `; choose ${fillable.join(" or ")}` : "; this cluster has no class whose driver can (none has a VolumeSnapshotClass)"}`,
    "volume.class-cannot-fill",
  );
}

/**
 * Makes a claim for no sandbox yet, as the person asking: empty, restored from a VolumeSnapshot,
 * or cloned from a claim. What would only fail later, or quietly — a class or a source that is
 * not there, a source larger than the claim, a clone into another class, a class whose driver
 * would leave it empty — is refused first, on its field; what the cluster then does (binding,
 * provisioning, copying) shows on the Volumes page as for any claim.
 */
export async function createVolume(deps: VolumeCreationDeps, input: unknown, actor: Actor, options: CreationOptions = {}): Promise<CreatedVolume> {
  const parsed = volumeCreationSchema.safeParse(input);
  if (!parsed.success) throw new RequestRejectedError(problemsFromZodError(parsed.error));
  const namespace = parsed.data.namespace ?? deps.defaultNamespace;
  const unmanaged = notManagedProblem(namespace, await deps.managedNamespaces?.());
  if (unmanaged) throw new RequestRejectedError([unmanaged]);
  const request = await checkedSource(deps, parsed.data, namespace, options);
  checkedClass(request, await deps.storageClasses());
  const { name, retain, dataSource, storageClassName } = request;
  return auditedChange(deps.store.audit, { actor, action: "volume.create", targetKind: "PersistentVolumeClaim", namespace, name, details: { storageClassName: storageClassName ?? null, size: request.size, dataSource: dataSource ?? null, retain } }, async () => {
    let created;
    try {
      created = await deps.volumes.createClaim(renderStandaloneClaim({ ...request, namespace }, deps.labelPrefix));
    } catch (error) {
      if (error instanceof KubeApiError && error.alreadyExists) throw new VolumeConflictError(`namespace ${namespace} already has a claim named ${name}: choose another name`, ["name"]);
      throw error;
    }
    return { namespace, name, uid: created.metadata?.uid ?? "", ownership: retain ? "retain" : "existing", storageClassName: storageClassName ?? null };
  });
}

/**
 * Deletes a claim no pod and no live sandbox uses (409 naming the users otherwise). Berth's own
 * read-only helpers that read it (the claim's Files) are not users: they are deleted first, as the
 * person, so the claim goes now rather than when they expire. A pod that starts to mount it in the
 * moment between check and delete keeps it alive anyway: Kubernetes' pvc-protection finalizer
 * holds a used claim in Terminating until that pod is gone.
 */
export async function deleteVolume(deps: VolumeActionDeps, namespace: string, name: string, actor: Actor): Promise<{ uid: string; ownership: Volume["ownership"]; sandbox: string | null }> {
  return auditedChange(deps.store.audit, { actor, action: "volume.delete", targetKind: "PersistentVolumeClaim", namespace, name, detailsOf: (done) => done }, async () => {
    const { volume, claim, uid } = await knownClaim(deps, namespace, name);
    const [pods, sandboxes] = await Promise.all([deps.volumes.listPods(namespace), deps.volumes.listSandboxes(namespace)]);
    const isReader = (pod: V1Pod) => pod.metadata?.labels?.[volumeReaderKeys(deps.readers.labelPrefix).helper] === VOLUME_READER_HELPER;
    const users = claimUsers(claim, volume, pods.filter((pod) => !isReader(pod)), sandboxes);
    if (users.length > 0) throw new VolumeInUseError(namespace, name, users);
    if (claim.metadata?.deletionTimestamp) throw new VolumeStateError(`Claim ${namespace}/${name} is already being deleted.`);
    const readers = pods.filter((pod) => isReader(pod) && pod.spec?.volumes?.some((one) => one.persistentVolumeClaim?.claimName === name));
    for (const reader of readers) {
      await deps.readers.pods.delete(namespace, reader.metadata!.name!, reader.metadata!.uid!);
      await deps.store.audit.recordChange({ actor, action: "volume.reader-remove", targetKind: "PersistentVolumeClaim", targetId: `${namespace}/${name}`, outcome: "Succeeded", details: { pod: reader.metadata!.name!, why: "its claim was deleted" } });
    }
    try {
      await deps.volumes.deleteClaim(namespace, name, uid);
    } catch (error) {
      if (error instanceof KubeApiError && error.code === 409) throw new VolumeStateError(`Claim ${namespace}/${name} was replaced by a new claim of the same name since it was checked; nothing was deleted. Look again before deleting.`);
      throw error;
    }
    return { uid, ownership: volume.ownership, sandbox: volume.sandbox?.name ?? null };
  });
}

/**
 * Asks for a larger claim. Kubernetes grows only a bound claim whose StorageClass says
 * `allowVolumeExpansion: true`, and never shrinks one; the refusals name the `size` field.
 * The new capacity shows in the claim's status once the volume's resizer is done.
 */
export async function expandVolume(deps: VolumeActionDeps, namespace: string, name: string, input: unknown, actor: Actor): Promise<{ from: string | null; to: string }> {
  const parsed = volumeExpansionSchema.safeParse(input);
  if (!parsed.success) throw new RequestRejectedError(problemsFromZodError(parsed.error));
  const { size } = parsed.data;
  return auditedChange(deps.store.audit, { actor, action: "volume.expand", targetKind: "PersistentVolumeClaim", namespace, name, details: { size }, detailsOf: (done) => done }, async () => {
    // A controller's own write to the claim (its status, just after it bound) is no reason to
    // refuse the person: the claim is read and checked afresh, once.
    for (let attempt = 1; ; attempt++) {
      try {
        return await growClaim(deps, namespace, name, size);
      } catch (error) {
        const conflict = error instanceof KubeApiError && error.conflict;
        if (conflict && attempt === 1) continue;
        if (conflict) throw new VolumeStateError(`Claim ${namespace}/${name} changed while it was being grown, twice; nothing was changed. Try again.`);
        throw error;
      }
    }
  });
}

/** One try at growing the claim as it is read now; a KubeApiError conflict when it changed meanwhile. */
async function growClaim(deps: VolumeActionDeps, namespace: string, name: string, size: string): Promise<{ from: string | null; to: string }> {
  const { claim } = await knownClaim(deps, namespace, name);
  const rejected = (message: string) => new RequestRejectedError([{ code: "custom", path: ["size"], message }]);
  if (claim.status?.phase !== "Bound" || claim.metadata?.deletionTimestamp) {
    throw new VolumeStateError(`Claim ${namespace}/${name} is ${claim.metadata?.deletionTimestamp ? "being deleted" : (claim.status?.phase ?? "Pending")}: only a bound claim can grow.`);
  }
  const className = claim.spec?.storageClassName;
  const storageClass = className ? await deps.volumes.readStorageClass(className) : null;
  if (storageClass?.allowVolumeExpansion !== true) {
    throw rejected(
      className
        ? `StorageClass ${className} does not allow volume expansion (allowVolumeExpansion is not true), so claim ${name} cannot grow; move its data to a larger claim instead`
        : `claim ${name} has no StorageClass, so it cannot grow; only claims of a class with allowVolumeExpansion: true can`,
    );
  }
  const from = claim.spec?.resources?.requests?.storage ?? null;
  const smaller = expansionProblem(from, size);
  if (smaller) throw rejected(smaller);
  await deps.volumes.requestStorage(namespace, name, size, claim.metadata!.resourceVersion!);
  return { from, to: size };
}

/**
 * Switches what happens to a volume and its data once its claim is deleted: kept (Retain) or
 * deleted with it (Delete). Only for the volume of a claim Berth knows, or one already Released
 * (its claim gone); the write applies only to the volume as it was read.
 */
export async function setReclaimPolicy(deps: VolumeActionDeps, name: string, input: unknown, actor: Actor): Promise<ReclaimPolicyChanged> {
  const parsed = reclaimPolicyChangeSchema.safeParse(input);
  if (!parsed.success) throw new RequestRejectedError(problemsFromZodError(parsed.error));
  const to = parsed.data.reclaimPolicy;
  return auditedChange(deps.store.audit, { actor, action: "volume.reclaim-policy", targetKind: "PersistentVolume", name, details: { to }, detailsOf: ({ from, claim }) => ({ from, claim }) }, async () => {
    const volume = await deps.volumes.readPersistentVolume(name);
    const phase = volume?.status?.phase;
    const claimRef = volume?.spec?.claimRef;
    const claim = claimRef?.name ? `${claimRef.namespace}/${claimRef.name}` : null;
    const ofKnownClaim = phase === "Bound" && (await deps.known()).some((one) => one.volumeName === name && `${one.namespace}/${one.name}` === claim);
    if (!volume || !(ofKnownClaim || phase === "Released")) throw new PersistentVolumeNotFoundError(name);
    const from = volume.spec?.persistentVolumeReclaimPolicy ?? "Delete";
    if (from === to) return { name, from, to, claim };
    try {
      await deps.volumes.setReclaimPolicy(name, to, volume.metadata!.resourceVersion!);
    } catch (error) {
      if (error instanceof KubeApiError && error.conflict) throw new VolumeStateError(`PersistentVolume ${name} changed while its reclaim policy was being set; nothing was changed. Look again and retry.`);
      throw error;
    }
    return { name, from, to, claim };
  });
}

/**
 * Deletes a Released volume — one whose claim is gone and whose Retain policy kept it, with its
 * data — by uid. A volume still Bound is its claim's business (delete the claim); one Available
 * may be about to be bound.
 */
export async function deleteReleasedVolume(deps: VolumeActionDeps, name: string, actor: Actor): Promise<{ name: string; uid: string; formerClaim: string | null }> {
  return auditedChange(deps.store.audit, { actor, action: "volume.pv-delete", targetKind: "PersistentVolume", name, detailsOf: ({ formerClaim }) => ({ formerClaim }) }, async () => {
    const volume = await deps.volumes.readPersistentVolume(name);
    if (!volume) throw new PersistentVolumeNotFoundError(name);
    const claimRef = volume.spec?.claimRef;
    const formerClaim = claimRef?.name ? `${claimRef.namespace}/${claimRef.name}` : null;
    if (volume.status?.phase !== "Released") {
      throw new VolumeStateError(`PersistentVolume ${name} is ${volume.status?.phase ?? "not Released"}${formerClaim && volume.status?.phase === "Bound" ? ` to claim ${formerClaim}: delete the claim instead` : ""}; only a Released volume is deleted here.`);
    }
    const uid = volume.metadata!.uid!;
    try {
      await deps.volumes.deletePersistentVolume(name, uid);
    } catch (error) {
      if (error instanceof KubeApiError && error.conflict) throw new VolumeStateError(`PersistentVolume ${name} was replaced by another of the same name since it was read; nothing was deleted.`);
      throw error;
    }
    return { name, uid, formerClaim };
  });
}
