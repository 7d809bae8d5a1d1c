import { z } from "zod";
import { instantSchema } from "./instant.ts";
import { gatewayDefaultsSchema, type GatewayDefaults } from "./gateway-defaults.ts";

// The gateway defaults as the Settings page and `/api/v1/settings` speak of them: the value in
// effect, where it came from, and the change a person may make. The rules are the very ones the
// configuration is validated with (gatewayDefaultsSchema); only their "unset" and "default"
// wrappers are taken off, because a change names exactly the keys it changes.

export type GatewayDefaultKey = keyof GatewayDefaults;

/**
 * What a person may change through Berth. `labelPrefix` and `workspaceMountPath` are not among
 * them: Berth finds the sandboxes it made by the one (label selectors, claim sweeps) and reads
 * their state marker under the other, so changing either while sandboxes exist would lose them.
 * They stay configuration-only, changed with a restart.
 */
export const EDITABLE_GATEWAY_KEYS = ["workspaceBackend", "workspaceDefaultStorageSize", "workspaceStorageClass", "sandboxNamespace"] as const satisfies readonly GatewayDefaultKey[];
export type EditableGatewayKey = (typeof EDITABLE_GATEWAY_KEYS)[number];

export const CONFIGURATION_ONLY_KEYS = ["workspaceMountPath", "labelPrefix"] as const satisfies readonly GatewayDefaultKey[];

/** What each default accepts, in words, for messages from the configuration and the API alike. */
export const ALLOWED_GATEWAY_VALUES: Record<GatewayDefaultKey, string> = {
  workspaceBackend: "pvc or ephemeral",
  workspaceDefaultStorageSize: "a positive Kubernetes quantity such as 2Gi",
  workspaceStorageClass: "a StorageClass name, or an empty string for no class (leave unset for the cluster default)",
  workspaceMountPath: "an absolute path such as /sandbox, other than / and outside /mnt/berth-workspace",
  sandboxNamespace: "a DNS-1123 label such as default or agents",
  labelPrefix: "a DNS subdomain such as berth.dev",
};

const shape = gatewayDefaultsSchema.shape;

const configurationOnly = (key: (typeof CONFIGURATION_ONLY_KEYS)[number]) =>
  z
    .never({ error: `${key} is set by configuration only (Helm value server.${key}, restart to apply): Berth finds the sandboxes it made by it, so it cannot change while they exist` })
    .optional();

/**
 * A change to the gateway defaults: each key present is set (and then wins over the
 * configuration); `workspaceStorageClass: null` means "the cluster's default class", `""` means
 * "no class". `reset` drops the changes made through Berth for those keys, so the configuration
 * applies again.
 */
export const gatewaySettingsChangeSchema = z.strictObject({
  workspaceBackend: shape.workspaceBackend.unwrap().optional(),
  workspaceDefaultStorageSize: shape.workspaceDefaultStorageSize.unwrap().optional(),
  workspaceStorageClass: shape.workspaceStorageClass.unwrap().nullable().optional(),
  sandboxNamespace: shape.sandboxNamespace.unwrap().optional(),
  workspaceMountPath: configurationOnly("workspaceMountPath"),
  labelPrefix: configurationOnly("labelPrefix"),
  reset: z.array(z.enum(EDITABLE_GATEWAY_KEYS)).optional(),
});
export type GatewaySettingsChange = z.infer<typeof gatewaySettingsChangeSchema>;

/** The edit form: every editable key, as the change it sends. */
export const gatewaySettingsFormSchema = gatewaySettingsChangeSchema.pick({
  workspaceBackend: true,
  workspaceDefaultStorageSize: true,
  workspaceStorageClass: true,
  sandboxNamespace: true,
}).required();
export type GatewaySettingsForm = z.infer<typeof gatewaySettingsFormSchema>;

/** Where a value in effect came from; `berth` is a change made through this API, which wins. */
export const GATEWAY_SETTING_SOURCES = ["default", "environment", "file", "berth"] as const;
export const gatewaySettingSourceSchema = z.enum(GATEWAY_SETTING_SOURCES);
export type GatewaySettingSource = z.infer<typeof gatewaySettingSourceSchema>;

const settingValueSchema = z.string().nullable();

/** One gateway default in effect. `value: null` is "unset" (only the storage class can be). */
export const gatewaySettingSchema = z.object({
  key: z.enum(Object.keys(shape) as [GatewayDefaultKey, ...GatewayDefaultKey[]]),
  value: settingValueSchema,
  source: gatewaySettingSourceSchema,
  /** What the configuration says; differs from `value` when a change through Berth wins. */
  configured: settingValueSchema,
  configuredBy: z.enum(["default", "environment", "file"]),
  editable: z.boolean(),
  helmValue: z.string(),
  environmentVariable: z.string(),
  allowed: z.string(),
  changedBy: z.string().nullable(),
  changedAt: instantSchema.nullable(),
});
export type GatewaySetting = z.infer<typeof gatewaySettingSchema>;

export const gatewaySettingsSchema = z.object({ items: z.array(gatewaySettingSchema) });

/** The change recorded in the audit log for each key: `{from, to}`; `null` is unset. */
export const settingsChangeDetailsSchema = z.object({
  changes: z.record(z.string(), z.object({ from: z.unknown(), to: z.unknown() })).optional(),
  keys: z.array(z.string()).optional(),
});
