import type { GatewayDefaults } from "../domain/gateway-defaults.ts";
import { berthEnvironmentVariable } from "../domain/gateway-limits.ts";

/**
 * Every gateway default, with the environment variable and the Helm value that set it.
 * One table so the three names can never drift apart: `server.<key>` in Helm values and in
 * the config file, `BERTH_<KEY_IN_SNAKE_CASE>` in the environment.
 */
export const GATEWAY_KEYS = [
  "workspaceBackend",
  "workspaceDefaultStorageSize",
  "workspaceStorageClass",
  "workspaceMountPath",
  "sandboxNamespace",
  "labelPrefix",
] as const satisfies readonly (keyof GatewayDefaults)[];

export type GatewayKey = (typeof GATEWAY_KEYS)[number];

export function environmentVariableFor(key: GatewayKey): string {
  return berthEnvironmentVariable(key);
}

export function helmValueFor(key: GatewayKey): string {
  return `server.${key}`;
}
