import { z } from "zod";
import { dns1123Label, dns1123Subdomain } from "./kubernetes-names.ts";
import { workspaceMountPathProblem } from "./mount-paths.ts";
import { positiveQuantity } from "./quantity.ts";

export const WORKSPACE_BACKENDS = ["pvc", "ephemeral"] as const;
export const workspaceBackendSchema = z.enum(WORKSPACE_BACKENDS, {
  error: `workspace backend must be one of: ${WORKSPACE_BACKENDS.join(", ")}`,
});
export type WorkspaceBackend = z.infer<typeof workspaceBackendSchema>;

/**
 * The gateway's defaults for every sandbox it creates. Key names match the Helm values
 * `server.<key>` one for one (server.workspaceBackend, server.workspaceStorageClass,
 * server.workspaceDefaultStorageSize, ...).
 */
export const gatewayDefaultsSchema = z.object({
  workspaceBackend: workspaceBackendSchema.default("pvc"),
  workspaceDefaultStorageSize: positiveQuantity("workspaceDefaultStorageSize").default("2Gi"),
  /** Unset: the cluster's default StorageClass. Empty string: no class at all. */
  workspaceStorageClass: z.union([z.literal(""), dns1123Subdomain("workspaceStorageClass")], { error: "workspaceStorageClass must be a string" }).optional(),
  // The same rule as a request's workspace.mountPath: a default that every request would be
  // refused for is no default.
  workspaceMountPath: z
    .string()
    .superRefine((path, ctx) => {
      const problem = workspaceMountPathProblem(path);
      if (problem) ctx.addIssue({ code: "custom", message: `workspaceMountPath ${problem}` });
    })
    .default("/sandbox"),
  sandboxNamespace: dns1123Label("sandboxNamespace").default("default"),
  labelPrefix: dns1123Subdomain("labelPrefix").default("berth.dev"),
});
export type GatewayDefaults = z.infer<typeof gatewayDefaultsSchema>;
