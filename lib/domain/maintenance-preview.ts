import { z } from "zod";

// What draining a node would do to each pod on it, as the API answers it (GET
// /api/v1/nodes/{name}/maintenance/preview); lib/disruption/maintenance-preview.ts works it out.

export const DRAIN_OUTCOMES = ["moves", "waitsForNode", "losesWorkspace", "cannotMove", "evicted", "ignored", "refused"] as const;
export const drainOutcomeSchema = z.enum(DRAIN_OUTCOMES);
export type DrainOutcome = z.infer<typeof drainOutcomeSchema>;

export const podDrainPreviewSchema = z.object({
  namespace: z.string(),
  pod: z.string(),
  /** The Berth sandbox the pod runs, when it runs one. */
  sandbox: z.object({ id: z.string(), name: z.string() }).nullable(),
  outcome: drainOutcomeSchema,
  /** Protected sandboxes: maintenance checkpoints them, relaxes their budget, then evicts. */
  checkpointedFirst: z.boolean(),
  message: z.string(),
});
export type PodDrainPreview = z.infer<typeof podDrainPreviewSchema>;

export const maintenancePreviewSchema = z.object({
  node: z.string(),
  cordoned: z.boolean(),
  /** Where moving pods can go. */
  otherSchedulableNodes: z.array(z.string()),
  pods: z.array(podDrainPreviewSchema),
});
export type MaintenancePreview = z.infer<typeof maintenancePreviewSchema>;
