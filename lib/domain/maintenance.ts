import { z } from "zod";

// Planned maintenance of a node: what a run is asked to do, and how far it got.

export const maintenanceOptionsSchema = z.strictObject({
  /** How many sandboxes are checkpointed at once. */
  parallelism: z.int("parallelism must be a whole number").min(1, "parallelism must be at least 1").max(20, "parallelism must be at most 20").default(4),
  /** How long an eviction refused with 429 is retried before the run gives up on that pod. */
  evictionTimeoutSeconds: z.int("evictionTimeoutSeconds must be a whole number of seconds").min(1).max(3600).default(300),
  /** How long the run waits for a moved sandbox's replacement to be Ready. */
  replacementTimeoutSeconds: z.int("replacementTimeoutSeconds must be a whole number of seconds").min(1).max(3600).default(300),
});
export type MaintenanceOptions = z.infer<typeof maintenanceOptionsSchema>;

export const MAINTENANCE_RUN_STATES = ["Running", "Blocked", "Succeeded", "Failed", "Cancelled", "Interrupted"] as const;
export const maintenanceRunStateSchema = z.enum(MAINTENANCE_RUN_STATES);
export type MaintenanceRunState = z.infer<typeof maintenanceRunStateSchema>;

/** Where one sandbox is in the run. */
export const SANDBOX_MAINTENANCE_STEPS = [
  "Pending",
  "Checkpointing",
  "Checkpointed",
  /** Its checkpoint failed and its policy is Block: it is not evicted; an operator decides. */
  "WaitingForOperator",
  "Evicting",
  "Evicted",
  /** Its replacement is Ready (elsewhere, or back here). */
  "Replaced",
  /** Its volume is pinned to this node: it comes back when the node is uncordoned. */
  "WaitingForNode",
  "Failed",
] as const;
export const sandboxMaintenanceStepSchema = z.enum(SANDBOX_MAINTENANCE_STEPS);

export const sandboxProgressSchema = z.object({
  sandboxId: z.string(),
  name: z.string(),
  namespace: z.string(),
  step: sandboxMaintenanceStepSchema,
  message: z.string(),
  checkpointId: z.string().nullable(),
});
export type SandboxProgress = z.infer<typeof sandboxProgressSchema>;

export const podProgressSchema = z.object({
  namespace: z.string(),
  pod: z.string(),
  step: z.enum(["Pending", "Evicted", "Skipped", "Failed"]),
  message: z.string(),
});
export type PodProgress = z.infer<typeof podProgressSchema>;

export const maintenanceProgressSchema = z.object({
  sandboxes: z.array(sandboxProgressSchema).default([]),
  pods: z.array(podProgressSchema).default([]),
});
export type MaintenanceProgress = z.infer<typeof maintenanceProgressSchema>;

export const budgetRefSchema = z.object({ namespace: z.string(), name: z.string() });
export type BudgetRef = z.infer<typeof budgetRefSchema>;

export const maintenanceRunSchema = z.object({
  id: z.uuid(),
  node: z.string(),
  state: maintenanceRunStateSchema,
  actor: z.string(),
  actorGroups: z.array(z.string()),
  options: maintenanceOptionsSchema,
  progress: maintenanceProgressSchema,
  relaxedBudgets: z.array(budgetRefSchema),
  message: z.string().nullable(),
  startedAt: z.date(),
  finishedAt: z.date().nullable(),
});
export type MaintenanceRun = z.infer<typeof maintenanceRunSchema>;
