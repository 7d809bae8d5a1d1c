import { z } from "zod";
import { claimOwnershipSchema } from "./workspace.ts";

// What `POST /api/v1/sandboxes?dryRun=true` answers: the objects a create would make, as the
// API server accepted them with dryRun=All, and nothing made. The objects themselves are
// Kubernetes manifests, checked here only as far as a reader of the answer relies on.

const manifestSchema = z.looseObject({
  apiVersion: z.string(),
  kind: z.string(),
  metadata: z.looseObject({ name: z.string(), namespace: z.string().optional() }),
});

export const dryRunClaimSchema = z.object({
  name: z.string(),
  ownership: claimOwnershipSchema.exclude(["template"]),
  /** The pod volumes that mount it: `workspace`, or the extra volumes' names. */
  mountedBy: z.array(z.string()),
  /** Absent when the create makes no claim: an existing claim, or a retained one found already there. */
  manifest: manifestSchema.optional(),
});

export const dryRunResultSchema = z.object({
  dryRun: z.literal(true),
  manifests: z.object({
    sandbox: manifestSchema,
    claims: z.array(dryRunClaimSchema),
    podDisruptionBudget: manifestSchema.optional(),
    /** Its values read "(set)": a dry run never sends a secret back. */
    secret: manifestSchema.optional(),
  }),
});
export type DryRunResult = z.infer<typeof dryRunResultSchema>;
