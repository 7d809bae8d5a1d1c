import { z } from "zod";
import { dns1123Subdomain } from "./kubernetes-names.ts";
import { positiveQuantity } from "./quantity.ts";

// A claim's VolumeSnapshots (snapshot.storage.k8s.io/v1) as the Volumes page shows them, and what
// may be asked of them: take one, restore one into a new claim, delete one.

export const volumeSnapshotSchema = z.object({
  namespace: z.string(),
  name: z.string(),
  /** The claim it was taken of. */
  sourceClaim: z.string().nullable(),
  readyToUse: z.boolean(),
  /** The smallest claim it restores into; known once it is ready. */
  restoreSize: z.string().nullable(),
  /** The snapshot controller's or the driver's error, while it has one. */
  error: z.string().nullable(),
  snapshotClass: z.string().nullable(),
  createdAt: z.string().nullable(),
  /** Being deleted (the controller waits, e.g. while a claim is still being restored from it). */
  deleting: z.boolean(),
});
export type VolumeSnapshot = z.infer<typeof volumeSnapshotSchema>;
export const volumeSnapshotListSchema = z.object({ items: z.array(volumeSnapshotSchema) });

/** POST /api/v1/volumes/{namespace}/{name}/snapshots: absent name, `<claim>-<UTC time>`. */
export const snapshotRequestSchema = z.strictObject({ name: dns1123Subdomain("name").optional() });

/** POST …/snapshots/{snapshot}/restore: a new claim from the snapshot, of the source claim's class unless one is named. */
export const restoreRequestSchema = z.strictObject({
  name: dns1123Subdomain("name"),
  /** Absent: the snapshot's restore size. */
  size: positiveQuantity("size").optional(),
  retain: z.boolean().default(true),
});
export type RestoreRequest = z.infer<typeof restoreRequestSchema>;

/** The name a snapshot gets when none is given: the claim's, and when (UTC, to the second). */
export function defaultSnapshotName(claim: string, at: Date): string {
  const stamp = at.toISOString().slice(0, 19).replace(/[-:]/g, "").replace("T", "-").toLowerCase();
  return `${claim.slice(0, 253 - stamp.length - 1)}-${stamp}`;
}
