import { z } from "zod";
import { workspaceBackendSchema } from "./gateway-defaults.ts";
import { positiveQuantity } from "./quantity.ts";
import { storageClassNameSchema } from "./workspace.ts";

export const KUBERNETES_DRIVER_CONFIG_KEYS = ["workspace_backend", "workspace_default_storage_size", "workspace_storage_class"] as const;
export const DRIVER_CONFIG_DRIVERS = ["kubernetes"] as const;

// Unknown keys are refused, not dropped: a misspelt override that silently does nothing is the
// worst outcome for a setting whose whole point is to beat the gateway default.
const unknownKeys = (where: string, allowed: readonly string[]) => (issue: { code?: string; keys?: string[] }) =>
  issue.code === "unrecognized_keys"
    ? `${where} does not support ${(issue.keys ?? []).map((key) => `'${key}'`).join(", ")}; allowed keys: ${allowed.join(", ")}`
    : undefined;

/**
 * Per-sandbox overrides of the gateway's workspace defaults, with the snake_case keys of
 * OpenShell's `--driver-config-json`, so a config written for OpenShell works here too.
 *
 * One deliberate difference: OpenShell reads `workspace_storage_class: ""` as "omit
 * storageClassName" (cluster default). Berth gives "" one meaning everywhere, Kubernetes' own
 * "no class"; leaving the key out gives the cluster default.
 */
export const kubernetesDriverConfigSchema = z.strictObject(
  {
    workspace_backend: workspaceBackendSchema.optional(),
    workspace_default_storage_size: positiveQuantity("driverConfig.kubernetes.workspace_default_storage_size").optional(),
    workspace_storage_class: storageClassNameSchema("driverConfig.kubernetes.workspace_storage_class").optional(),
  },
  { error: unknownKeys("driverConfig.kubernetes", KUBERNETES_DRIVER_CONFIG_KEYS) },
);
export type KubernetesDriverConfig = z.infer<typeof kubernetesDriverConfigSchema>;

export const driverConfigSchema = z.strictObject(
  { kubernetes: kubernetesDriverConfigSchema.optional() },
  { error: unknownKeys("driverConfig", DRIVER_CONFIG_DRIVERS) },
);
export type DriverConfig = z.infer<typeof driverConfigSchema>;
