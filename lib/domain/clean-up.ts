import { z } from "zod";
import type { Volume } from "./volume.ts";
import { volumeSnapshotSchema, type VolumeSnapshot } from "./volume-snapshot.ts";
import { claimOwnershipSchema } from "./workspace.ts";

// What storage is left over: claims no live sandbox uses, volumes Released by their claims (kept
// by a Retain policy, holding data nobody can mount until an admin acts), and snapshots whose
// claim is gone. Each with what a person needs to decide whether it can go. Pure.

export const unusedClaimSchema = z.object({
  namespace: z.string(),
  name: z.string(),
  ownership: claimOwnershipSchema.nullable(),
  storageClassName: z.string().nullable(),
  size: z.string().nullable(),
  createdAt: z.string().nullable(),
  /** The sandbox that used it last, and when that sandbox was deleted; null for a claim no sandbox had. */
  lastSandbox: z.object({ id: z.uuid(), name: z.string(), deletedAt: z.iso.datetime().nullable() }).nullable(),
  /** What deleting the claim does to its data: the volume's reclaim policy; null while unbound. */
  reclaimPolicy: z.string().nullable(),
});
export type UnusedClaim = z.infer<typeof unusedClaimSchema>;

export const releasedVolumeSchema = z.object({
  name: z.string(),
  uid: z.string(),
  reclaimPolicy: z.string(),
  storageClassName: z.string().nullable(),
  capacity: z.string().nullable(),
  /** The claim it was bound to, gone now. */
  formerClaim: z.object({ namespace: z.string(), name: z.string() }).nullable(),
  createdAt: z.string().nullable(),
});
export type ReleasedVolume = z.infer<typeof releasedVolumeSchema>;

export const orphanedSnapshotSchema = volumeSnapshotSchema;
export type OrphanedSnapshot = z.infer<typeof orphanedSnapshotSchema>;

export const cleanUpSchema = z.object({
  claims: z.array(unusedClaimSchema),
  /** null when the person may not list PersistentVolumes (they are the cluster's, not a namespace's). */
  releasedVolumes: z.array(releasedVolumeSchema).nullable(),
  snapshots: z.array(orphanedSnapshotSchema),
});
export type CleanUp = z.infer<typeof cleanUpSchema>;

/** A claim Berth knows that no pod mounts and no live sandbox owns. */
export function isUnused(volume: Volume): boolean {
  return volume.attachedTo === null && volume.phase !== "Terminating" && (volume.sandbox === null || volume.sandbox.deleted);
}

export function unusedClaim(volume: Volume, deletedAt: Date | null): UnusedClaim {
  return {
    namespace: volume.namespace,
    name: volume.name,
    ownership: volume.ownership,
    storageClassName: volume.storageClassName,
    size: volume.capacity ?? volume.requested,
    createdAt: volume.createdAt,
    lastSandbox: volume.sandbox ? { id: volume.sandbox.id, name: volume.sandbox.name, deletedAt: deletedAt?.toISOString() ?? null } : null,
    reclaimPolicy: volume.persistentVolume?.reclaimPolicy ?? null,
  };
}

/** The namespace's snapshots whose source claim is gone. */
export function orphanedSnapshots(namespace: string, snapshots: VolumeSnapshot[], claimExists: (name: string) => boolean): OrphanedSnapshot[] {
  return snapshots.filter((one) => one.namespace === namespace && one.sourceClaim !== null && !claimExists(one.sourceClaim));
}

const byAge = <T extends { createdAt: string | null }>(a: T, b: T) => (a.createdAt ?? "").localeCompare(b.createdAt ?? "");

/** Oldest first: what has been left longest comes up first. */
export function sortedCleanUp(cleanUp: CleanUp): CleanUp {
  return { claims: [...cleanUp.claims].sort(byAge), releasedVolumes: cleanUp.releasedVolumes ? [...cleanUp.releasedVolumes].sort(byAge) : null, snapshots: [...cleanUp.snapshots].sort(byAge) };
}
