import { z } from "zod";
import { claimUsageSchema } from "./volume-usage.ts";
import { claimOwnershipSchema } from "./workspace.ts";

/**
 * attached: mounted by a pod that exists. detached: mounted by nothing, but kept on purpose (a
 * stopped sandbox's, or a retained claim waiting to be resumed from). orphaned: nothing will
 * ever use it — a `delete` claim whose sandbox is gone, or a claim labelled for a sandbox Berth
 * has no record of.
 */
export const volumeStateSchema = z.enum(["attached", "detached", "orphaned"]);
export type VolumeState = z.infer<typeof volumeStateSchema>;

/** A claim Berth knows: a sandbox's workspace or one of its extra volumes; how full it is, where a kubelet measures it. */
export const volumeSchema = claimUsageSchema.extend({
  namespace: z.string(),
  name: z.string(),
  /** The sandbox it belongs (or belonged) to; null when Berth has no record of one. */
  sandbox: z.object({ id: z.uuid(), name: z.string(), deleted: z.boolean() }).nullable(),
  ownership: claimOwnershipSchema.nullable(),
  usage: z.enum(["workspace", "volume"]),
  /** Bound, Pending or Lost; Terminating while deleted and held by a pod. */
  phase: z.string(),
  /** Why a Pending claim is not bound yet, in the binder's or provisioner's words. */
  pendingReason: z.string().nullable(),
  storageClassName: z.string().nullable(),
  requested: z.string().nullable(),
  capacity: z.string().nullable(),
  accessModes: z.array(z.string()),
  volumeName: z.string().nullable(),
  /** The PersistentVolume the claim is bound to, as the watch has it; null before it binds. */
  persistentVolume: z
    .object({
      name: z.string(),
      /** Delete: the volume and its data go when the claim is deleted. Retain: they stay, Released, until an admin removes them. */
      reclaimPolicy: z.string(),
      /** Available, Bound, Released or Failed. */
      phase: z.string().nullable(),
      capacity: z.string().nullable(),
    })
    .nullable(),
  /** The node a node-local volume is pinned to: its pod can run nowhere else. */
  pinnedToNode: z.string().nullable(),
  attachedTo: z.object({ pod: z.string(), nodeName: z.string().nullable() }).nullable(),
  state: volumeStateSchema,
  createdAt: z.string().nullable(),
  /** The claim's Kubernetes labels, Berth's own included: what `labelSelector` selects on. */
  labels: z.record(z.string(), z.string()),
});
export type Volume = z.infer<typeof volumeSchema>;
