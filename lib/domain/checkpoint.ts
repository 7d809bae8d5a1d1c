import { z } from "zod";
import { instantSchema } from "./instant.ts";

export const CHECKPOINT_RESULTS = ["Running", "Succeeded", "Failed", "TimedOut"] as const;
export const checkpointResultSchema = z.enum(CHECKPOINT_RESULTS);
export const checkpointTriggerSchema = z.enum(["Manual", "Maintenance"]);

export const checkpointSchema = z.object({
  id: z.uuid(),
  sandboxId: z.uuid(),
  trigger: checkpointTriggerSchema,
  /** The pod it ran in (null for checkpoints recorded before Berth kept it). */
  podUid: z.string().nullable(),
  result: checkpointResultSchema,
  startedAt: instantSchema,
  finishedAt: instantSchema.nullable(),
  durationMs: z.number().int().nonnegative().nullable(),
  /** The last lines the checkpoint hook printed, for a person to read why it failed. */
  hookOutputTail: z.string().nullable(),
  markerWritten: z.boolean(),
  snapshotName: z.string().nullable(),
  snapshotReady: z.boolean().nullable(),
  snapshotError: z.string().nullable(),
});
export type Checkpoint = z.infer<typeof checkpointSchema>;

export const checkpointOutcomeSchema = z.object({
  result: checkpointResultSchema.exclude(["Running"]),
  hookOutputTail: z.string().nullable().default(null),
  markerWritten: z.boolean(),
});
export type CheckpointOutcome = z.input<typeof checkpointOutcomeSchema>;
