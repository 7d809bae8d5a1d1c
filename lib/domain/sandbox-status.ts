import { z } from "zod";
import { sandboxDetailsSchema } from "./sandbox-details.ts";

/**
 * What a person needs to know about a sandbox at a glance. Disrupted and Recovering are
 * distinct from the first Provisioning: a sandbox that lost its pod is not "starting".
 */
export const SANDBOX_PHASES = [
  "Pending",
  "Provisioning",
  "Ready",
  "Checkpointing",
  "Disrupted",
  "Recovering",
  "Stopping",
  "Stopped",
  "Starting",
  "Error",
  "Deleting",
  "Deleted",
] as const;
export const sandboxPhaseSchema = z.enum(SANDBOX_PHASES);
export type SandboxPhase = z.infer<typeof sandboxPhaseSchema>;

/** A Kubernetes-shaped condition, as Berth derives and stores it. */
export const conditionSchema = z.object({
  type: z.string().min(1),
  status: z.enum(["True", "False", "Unknown"]),
  reason: z.string().optional(),
  message: z.string().optional(),
  lastTransitionTime: z.iso.datetime(),
});
export type Condition = z.infer<typeof conditionSchema>;

/** Where the sandbox runs now and where it ran before its last disruption. */
export const podIdentitySchema = z.object({
  nodeName: z.string().nullable(),
  podName: z.string().nullable(),
  podUid: z.string().nullable(),
  previousNodeName: z.string().nullable(),
  previousPodUid: z.string().nullable(),
});
export type PodIdentity = z.infer<typeof podIdentitySchema>;

export const sandboxStatusSchema = podIdentitySchema.extend({
  phase: sandboxPhaseSchema,
  reason: z.string().nullable(),
  message: z.string().nullable(),
  conditions: z.array(conditionSchema),
  /** Further derived facts: the last disruption and recovery, protection, the durable-state verdict. */
  details: sandboxDetailsSchema,
});
export type SandboxStatus = z.infer<typeof sandboxStatusSchema>;
