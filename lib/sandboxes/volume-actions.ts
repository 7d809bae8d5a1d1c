import type { Actor } from "../domain/audit.ts";
import type { Volume } from "../domain/volume.ts";
import { expansionProblem, volumeExpansionSchema } from "../domain/volume-actions.ts";
import { problemsFromZodError } from "../domain/problems.ts";
import { KubeApiError } from "../kube/kube-errors.ts";
import type { VolumeResources } from "../kube/volume-resources.ts";
import type { Store } from "../store/index.ts";
import { auditedChange } from "./audited-change.ts";
import { claimUsers } from "./claim-users.ts";
import { RequestRejectedError, VolumeInUseError, VolumeNotFoundError, VolumeStateError } from "./lifecycle-errors.ts";

// The Volumes page's actions on a claim Berth knows: delete it once nothing uses it, grow it
// where its StorageClass allows. Both re-read the cluster first (the list the page showed may be
// a moment old) and write with a precondition, so a claim recreated under the same name, or
// changed meanwhile, is never the one touched. Both are audited, refusals as well.

export interface VolumeActionDeps {
  store: Pick<Store, "audit">;
  volumes: VolumeResources;
  /** The claims Berth knows, as GET /api/v1/volumes lists them. */
  known: () => Promise<Volume[]>;
}

async function knownClaim(deps: VolumeActionDeps, namespace: string, name: string) {
  const volume = (await deps.known()).find((one) => one.namespace === namespace && one.name === name);
  const claim = volume ? await deps.volumes.readClaim(namespace, name) : null;
  if (!volume || !claim?.metadata?.uid) throw new VolumeNotFoundError(namespace, name);
  return { volume, claim, uid: claim.metadata.uid };
}

/**
 * Deletes a claim no pod and no live sandbox uses (409 naming the users otherwise). A pod that
 * starts to mount it in the moment between check and delete keeps it alive anyway: Kubernetes'
 * pvc-protection finalizer holds a used claim in Terminating until that pod is gone.
 */
export async function deleteVolume(deps: VolumeActionDeps, namespace: string, name: string, actor: Actor): Promise<{ uid: string; ownership: Volume["ownership"]; sandbox: string | null }> {
  return auditedChange(deps.store.audit, { actor, action: "volume.delete", targetKind: "PersistentVolumeClaim", namespace, name, detailsOf: (done) => done }, async () => {
    const { volume, claim, uid } = await knownClaim(deps, namespace, name);
    const [pods, sandboxes] = await Promise.all([deps.volumes.listPods(namespace), deps.volumes.listSandboxes(namespace)]);
    const users = claimUsers(claim, volume, pods, sandboxes);
    if (users.length > 0) throw new VolumeInUseError(namespace, name, users);
    if (claim.metadata?.deletionTimestamp) throw new VolumeStateError(`Claim ${namespace}/${name} is already being deleted.`);
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
    try {
      await deps.volumes.requestStorage(namespace, name, size, claim.metadata!.resourceVersion!);
    } catch (error) {
      if (error instanceof KubeApiError && error.conflict) throw new VolumeStateError(`Claim ${namespace}/${name} changed while it was being grown; nothing was changed. Try again.`);
      throw error;
    }
    return { from, to: size };
  });
}
