import { z } from "zod";
import { dns1123Subdomain } from "./kubernetes-names.ts";
import { positiveQuantity } from "./quantity.ts";

// Moving a workspace to a portable class: its files copied into a new claim of a class whose
// volumes follow their pod to another node, by a helper pod Berth starts as the person. The old
// claim stays, untouched, until the person deletes it. Rules and shapes the browser and the
// server share; pure.

/** How long a copy may run before Berth gives it up (and deletes the half-filled claim). */
export const VOLUME_MOVE_DEADLINE_SECONDS = 6 * 60 * 60;

/** POST /api/v1/volumes/{namespace}/{name}/moves. */
export const volumeMoveRequestSchema = z.strictObject({
  /** The portable class the copy goes to. */
  storageClassName: dns1123Subdomain("storageClassName"),
  /** The new claim's name; absent: the old one's with `-moved`. */
  name: dns1123Subdomain("name").optional(),
  /** At least the old claim's capacity; absent: that capacity. */
  size: positiveQuantity("size").optional(),
});
export type VolumeMoveRequest = z.infer<typeof volumeMoveRequestSchema>;
export type VolumeMoveRequestInput = z.input<typeof volumeMoveRequestSchema>;

/** The new claim's name when the request names none: the old one's with `-moved`, within the 253 characters a name may have. */
export const defaultMoveTarget = (source: string) => `${source.slice(0, 253 - "-moved".length)}-moved`;

/**
 * Where a move is. Starting: the new claim is being provisioned or the helper scheduled.
 * Copying: the helper runs. Succeeded: every file is in the new claim. Failed: the copy stopped
 * (the new, half-filled claim is deleted by Berth's reconciler).
 */
export const volumeMovePhaseSchema = z.enum(["Starting", "Copying", "Succeeded", "Failed"]);
export type VolumeMovePhase = z.infer<typeof volumeMovePhaseSchema>;

export const volumeMoveSchema = z.object({
  namespace: z.string(),
  /** The claim copied from; it is kept. */
  source: z.string(),
  /** The claim copied into. */
  target: z.string(),
  storageClassName: z.string(),
  /** The helper pod doing the copy; null once it is gone (a finished move read from the claim's history). */
  pod: z.string().nullable(),
  phase: volumeMovePhaseSchema,
  startedBy: z.string(),
  startedAt: z.iso.datetime(),
  finishedAt: z.iso.datetime().nullable(),
  /** Bytes in the new claim and in the old one, as their kubelet last measured them; null while unknown. */
  copiedBytes: z.number().int().nonnegative().nullable(),
  totalBytes: z.number().int().nonnegative().nullable(),
  /** Why it failed, or what it waits for; null when there is nothing to say. */
  message: z.string().nullable(),
});
export type VolumeMove = z.infer<typeof volumeMoveSchema>;

export const volumeMoveListSchema = z.object({ items: z.array(volumeMoveSchema) });

/** How far a copy has got, 0–1, when both sizes are known; a finished one is whole. */
export function moveFraction(move: Pick<VolumeMove, "phase" | "copiedBytes" | "totalBytes">): number | null {
  if (move.phase === "Succeeded") return 1;
  if (move.copiedBytes === null || move.totalBytes === null) return null;
  if (move.totalBytes === 0) return move.phase === "Copying" ? 0 : null;
  return Math.min(1, move.copiedBytes / move.totalBytes);
}

/** A move still under way: only one at a time per claim. */
export const isMoveUnderWay = (move: Pick<VolumeMove, "phase">) => move.phase === "Starting" || move.phase === "Copying";
