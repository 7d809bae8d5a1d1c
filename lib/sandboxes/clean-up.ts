import type { V1PersistentVolume } from "@kubernetes/client-node";
import { isUnused, orphanedSnapshots, sortedCleanUp, unusedClaim, type CleanUp, type ReleasedVolume } from "../domain/clean-up.ts";
import type { Volume } from "../domain/volume.ts";
import type { VolumeSnapshot } from "../domain/volume-snapshot.ts";
import { KubeApiError } from "../kube/kube-errors.ts";

// The clean-up view, gathered for one person: the claims and Released volumes from Berth's
// watches, the snapshots as the person lists them, each namespace only where they may list claims.

export interface CleanUpSources {
  volumes: () => Promise<Volume[]>;
  persistentVolumes: () => V1PersistentVolume[];
  hasClaim: (namespace: string, name: string) => boolean;
  /** When the sandbox of that id was deleted; null when it was not, or is unknown. */
  sandboxDeletedAt: (id: string) => Promise<Date | null>;
  /** The namespace's snapshots, as the person lists them. */
  listSnapshots: (namespace: string) => Promise<VolumeSnapshot[]>;
}

export interface CleanUpScope {
  /** The managed namespaces whose claims the person may list. */
  namespaces: Set<string>;
  /** Whether the person may list PersistentVolumes. */
  mayListVolumes: boolean;
}

function releasedVolume(volume: V1PersistentVolume): ReleasedVolume {
  const claim = volume.spec?.claimRef;
  return {
    name: volume.metadata!.name!,
    uid: volume.metadata!.uid!,
    reclaimPolicy: volume.spec?.persistentVolumeReclaimPolicy ?? "Delete",
    storageClassName: volume.spec?.storageClassName ?? null,
    capacity: volume.spec?.capacity?.storage ?? null,
    formerClaim: claim?.name && claim.namespace ? { namespace: claim.namespace, name: claim.name } : null,
    createdAt: volume.metadata?.creationTimestamp ? new Date(volume.metadata.creationTimestamp as unknown as string).toISOString() : null,
  };
}

export async function findLeftovers(sources: CleanUpSources, scope: CleanUpScope): Promise<CleanUp> {
  const unused = (await sources.volumes()).filter((volume) => scope.namespaces.has(volume.namespace) && isUnused(volume));
  const claims = await Promise.all(unused.map(async (volume) => unusedClaim(volume, volume.sandbox ? await sources.sandboxDeletedAt(volume.sandbox.id) : null)));
  const releasedVolumes = scope.mayListVolumes
    ? sources.persistentVolumes().filter((volume) => volume.status?.phase === "Released" && !volume.metadata?.deletionTimestamp).map(releasedVolume)
    : null;
  const snapshots = (
    await Promise.all(
      [...scope.namespaces].map(async (namespace) => {
        try {
          return orphanedSnapshots(namespace, await sources.listSnapshots(namespace), (name) => sources.hasClaim(namespace, name));
        } catch (error) {
          // One who may list claims but not snapshots there sees no snapshots of it.
          if (error instanceof KubeApiError && error.code === 403) return [];
          throw error;
        }
      }),
    )
  ).flat();
  return sortedCleanUp({ claims, releasedVolumes, snapshots });
}
