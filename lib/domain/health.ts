import { z } from "zod";

/** GET /api/health: what this server is connected to, and whether it can serve. */
export const healthSchema = z.object({
  status: z.enum(["ok", "degraded", "failing"]),
  version: z.string(),
  startedAt: z.iso.datetime(),
  cluster: z.object({
    mode: z.enum(["embedded", "kubeconfig", "in-cluster"]),
    /** The API server's address; null while no connection is made. */
    server: z.string().nullable(),
    /** The served agents.x-k8s.io Sandbox version (v1beta1, else v1alpha1); null until discovered. */
    sandboxApiVersion: z.enum(["v1beta1", "v1alpha1"]).nullable(),
    connected: z.boolean(),
    message: z.string(),
  }),
  store: z.object({
    kind: z.enum(["pglite", "postgresql"]),
    ok: z.boolean(),
    message: z.string(),
  }),
});
export type Health = z.infer<typeof healthSchema>;
