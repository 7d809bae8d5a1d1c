import { z } from "zod";

/**
 * Where a class's volumes can be used. node-pinned: a volume lives on the node it was provisioned
 * on, so its pod can run nowhere else (a drain strands the sandbox until the node returns).
 * portable: the volume follows its pod to another node.
 */
export const storagePlacementSchema = z.enum(["node-pinned", "portable"]);
export type StoragePlacement = z.infer<typeof storagePlacementSchema>;

/** A StorageClass as the create form and platform teams need to see it. */
export const storageClassViewSchema = z.object({
  name: z.string(),
  provisioner: z.string(),
  /** Carries storageclass.kubernetes.io/is-default-class: claims without a class get it. */
  isDefault: z.boolean(),
  /** Immediate or WaitForFirstConsumer (binding waits until a pod is scheduled). */
  volumeBindingMode: z.string(),
  reclaimPolicy: z.string(),
  allowVolumeExpansion: z.boolean(),
  placement: storagePlacementSchema,
  /** Why Berth thinks so, in a sentence a person can check. */
  placementReason: z.string(),
  /** A VolumeSnapshotClass exists for its driver, so checkpoints can also snapshot. */
  snapshots: z.boolean(),
});
export type StorageClassView = z.infer<typeof storageClassViewSchema>;

export const storageClassListSchema = z.object({ items: z.array(storageClassViewSchema) });
