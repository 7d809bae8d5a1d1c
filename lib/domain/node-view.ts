import { z } from "zod";
import { sandboxPhaseSchema } from "./sandbox-status.ts";

/** A node with the sandboxes on it: where a platform team starts planning maintenance. */
export const nodeViewSchema = z.object({
  name: z.string(),
  ready: z.boolean(),
  cordoned: z.boolean(),
  /** The node's Kubernetes labels (zone, instance type, pool…): what `labelSelector` selects on. */
  labels: z.record(z.string(), z.string()),
  sandboxes: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      namespace: z.string(),
      phase: sandboxPhaseSchema,
      /** The warm pool it waits in, not yet handed to anyone; null otherwise. */
      warmPool: z.string().nullable(),
    }),
  ),
});
export type NodeView = z.infer<typeof nodeViewSchema>;
