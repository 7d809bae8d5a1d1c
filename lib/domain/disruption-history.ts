import { z } from "zod";

// The last disruption and its recovery, as kept in a sandbox status's `details` and told on the
// timeline: why the pod went, and how (and how fast) the sandbox came back. Stored as JSON, hence
// ISO strings for times. lib/disruption derives them; lib/disruption/disruption-details.ts reads
// and writes them in a status.

/** Why the pod went away without the user asking (the Disrupted condition's reason). */
export const DISRUPTION_REASONS = ["PodEvicted", "NodeDrained", "Preempted", "NodeLost", "ResourcePressure", "PodDeleted"] as const;
export const disruptionReasonSchema = z.enum(DISRUPTION_REASONS);
export type DisruptionReason = z.infer<typeof disruptionReasonSchema>;

/** What the recovery is waiting for while it is under way (the Recovering condition's reason when True). */
export const RECOVERING_REASONS = [
  /** No replacement pod yet: the old one is still terminating, or the controller is about to make one. */
  "ReplacementPending",
  /** The scheduler cannot place the replacement; its message is carried verbatim. */
  "Unschedulable",
  /** The workspace volume is pinned to a node that is cordoned or gone (local-path storage). */
  "VolumeNodeAffinityConflict",
  /** The pod is bound to a node that is down. */
  "WaitingForNode",
  /** The replacement's image is being pulled, or cannot be. */
  "ImagePull",
  /** The replacement is placed and its containers are starting. */
  "ReplacementStarting",
  /** The replacement crashes or failed: recovery is stuck until someone looks. */
  "ReplacementFailing",
] as const;

/** How a recovery ended, or why none is under way. */
export const RECOVERY_END_REASONS = [
  /** agent-sandbox does not replace a pod that ended Failed (kubelet pressure eviction). */
  "NotReplaced",
  "Recovered",
  /** The sandbox was stopped before it recovered; its next start is a fresh start. */
  "Stopped",
] as const;

export const recoveryReasonSchema = z.enum([...RECOVERING_REASONS, ...RECOVERY_END_REASONS]);
export type RecoveryReason = z.infer<typeof recoveryReasonSchema>;

export const disruptionRecordSchema = z.object({
  reason: disruptionReasonSchema,
  message: z.string(),
  /** When it happened: the DisruptionTarget condition's transition, the deletion, the node loss, or when first seen. */
  at: z.iso.datetime(),
  podUid: z.string().nullable(),
  nodeName: z.string().nullable(),
  /**
   * A checkpoint saved the pod's work before it went: one that succeeded during the pod's life
   * (a Berth maintenance run takes one before it evicts). The message says which, or that none was.
   */
  checkpointTaken: z.boolean(),
  /** When that checkpoint finished (absent in records written before it was kept). */
  checkpointFinishedAt: z.iso.datetime().nullable().optional(),
});
export type DisruptionRecord = z.infer<typeof disruptionRecordSchema>;

export const recoveryRecordSchema = z.object({
  reason: recoveryReasonSchema,
  message: z.string(),
  /** The disruption's time: recovery is measured from the moment the sandbox stopped serving. */
  startedAt: z.iso.datetime(),
  recoveredAt: z.iso.datetime().nullable(),
  durationMs: z.int().nonnegative().nullable(),
  replacementPodUid: z.string().nullable(),
  replacementNodeName: z.string().nullable(),
});
export type RecoveryRecord = z.infer<typeof recoveryRecordSchema>;

export const disruptionDetailsSchema = z.object({
  disruption: disruptionRecordSchema.nullable(),
  recovery: recoveryRecordSchema.nullable(),
});
export type DisruptionDetails = z.infer<typeof disruptionDetailsSchema>;
