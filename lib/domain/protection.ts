import { z } from "zod";

// Eviction protection as a person needs to see it, kept in a sandbox status's `details`: is the
// sandbox protected (its budget is in the cluster, not merely asked for), and is a drain being
// held up by it right now. lib/disruption/eviction-protection.ts derives it.

export const protectionSchema = z.object({
  /** The spec asks for a PodDisruptionBudget. */
  wanted: z.boolean(),
  /** A budget selecting the sandbox's pod exists in the cluster. */
  protected: z.boolean(),
  budgetName: z.string().nullable(),
  /** The budget refuses evictions right now (disruptionsAllowed 0). */
  refusingEvictions: z.boolean(),
  /** A drain is waiting on this sandbox: its node is cordoned and the budget refuses the eviction. */
  drainBlocked: z.boolean(),
  message: z.string().nullable(),
});
export type Protection = z.infer<typeof protectionSchema>;
