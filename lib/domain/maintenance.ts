import { z } from "zod";
import { instantSchema } from "./instant.ts";
import { drainOutcomeSchema } from "./maintenance-preview.ts";
import { personSchema } from "./person.ts";

// Planned maintenance of a node: what a run is asked to do, and how far it got.

export const maintenanceOptionsSchema = z.strictObject({
  /**
   * At most how many checkpoints and evictions go at once. Without it, every sandbox of the node
   * goes at once, fewer while the API server throttles.
   */
  parallelism: z.int("parallelism must be a whole number").min(1, "parallelism must be at least 1").max(500, "parallelism must be at most 500").optional(),
  /** How long an eviction refused with 429 is retried before the run gives up on that pod. */
  evictionTimeoutSeconds: z.int("evictionTimeoutSeconds must be a whole number of seconds").min(1).max(3600).default(300),
  /** How long the run waits for a moved sandbox's replacement to be Ready. */
  replacementTimeoutSeconds: z.int("replacementTimeoutSeconds must be a whole number of seconds").min(1).max(3600).default(300),
});
export type MaintenanceOptions = z.infer<typeof maintenanceOptionsSchema>;

/** Interrupted: closed by an older console that stopped mid-run; runs are resumed now instead. */
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
  /** It was no longer on the node when the run reached it (moved, or its pod gone): nothing to do. */
  "Left",
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
  /** What the drain was predicted to do to it when the run was asked for. */
  outcome: drainOutcomeSchema.default("moves"),
  /** The pod that was evicted, so that whoever resumes the run knows its replacement from it. */
  podUid: z.string().nullable().default(null),
});
export type SandboxProgress = z.infer<typeof sandboxProgressSchema>;

export const podProgressSchema = z.object({
  namespace: z.string(),
  pod: z.string(),
  step: z.enum(["Pending", "Evicted", "Skipped", "Failed"]),
  message: z.string(),
  outcome: drainOutcomeSchema.default("evicted"),
});
export type PodProgress = z.infer<typeof podProgressSchema>;

export const maintenanceProgressSchema = z.object({
  sandboxes: z.array(sandboxProgressSchema).default([]),
  pods: z.array(podProgressSchema).default([]),
});
export type MaintenanceProgress = z.infer<typeof maintenanceProgressSchema>;

export const budgetRefSchema = z.object({ namespace: z.string(), name: z.string() });
export type BudgetRef = z.infer<typeof budgetRefSchema>;

/**
 * Whose authority a run's cordon and evictions carry, kept for as long as it runs, in whichever
 * replica: Berth's own, or the person's, impersonated. A bearer token is never kept: its owner,
 * as Kubernetes named them when the run was asked for, is impersonated instead.
 */
export const runAuthoritySchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("berth") }),
  z.object({ kind: z.literal("impersonate"), person: personSchema }),
]);
export type RunAuthority = z.infer<typeof runAuthoritySchema>;

export const maintenanceRunSchema = z.object({
  id: z.uuid(),
  node: z.string(),
  state: maintenanceRunStateSchema,
  actor: z.string(),
  actorGroups: z.array(z.string()),
  /** Asked to stop after its current step; it is still Running until it has. */
  cancelRequested: z.boolean(),
  /** How many times a writer took it up: more than 1 when it was resumed after a failover or restart. */
  attempts: z.int(),
  /** The replica running it, or that ran it last; null until one takes it up. */
  runBy: z.string().nullable(),
  options: maintenanceOptionsSchema,
  progress: maintenanceProgressSchema,
  relaxedBudgets: z.array(budgetRefSchema),
  message: z.string().nullable(),
  startedAt: instantSchema,
  finishedAt: instantSchema.nullable(),
});
export type MaintenanceRun = z.infer<typeof maintenanceRunSchema>;
