import type { Actor } from "../domain/audit.ts";
import type { ServerConfig } from "../config/index.ts";
import { environmentVariableFor, GATEWAY_KEYS, helmValueFor } from "../config/gateway-keys.ts";
import { gatewayDefaultsSchema, type GatewayDefaults } from "../domain/gateway-defaults.ts";
import {
  ALLOWED_GATEWAY_VALUES,
  EDITABLE_GATEWAY_KEYS,
  gatewaySettingsChangeSchema,
  type EditableGatewayKey,
  type GatewayDefaultKey,
  type GatewaySetting,
} from "../domain/gateway-settings.ts";
import { problemsFromZodError, type SpecProblem } from "../domain/problems.ts";
import type { Store, StoredGatewaySetting } from "../store/index.ts";
import { RequestRejectedError } from "./lifecycle-errors.ts";

// The gateway defaults in effect: the configuration (environment > file > built-in default),
// with the changes made through Berth on top. A change through Berth wins because it is the
// later, deliberate act of someone looking at this very page; the configuration is the
// install-time baseline, and a reset hands a key back to it. They are read from the store at
// every use, so every replica sharing the database creates sandboxes with the same defaults.

export interface SettingsDeps {
  config: Pick<ServerConfig, "gateway" | "sources">;
  store: Pick<Store, "settings">;
}

const isEditable = (key: string): key is EditableGatewayKey => (EDITABLE_GATEWAY_KEYS as readonly string[]).includes(key);

/** Stored changes to keys that are configuration-only (from an older version) are ignored. */
function applied(stored: StoredGatewaySetting[]): StoredGatewaySetting[] {
  return stored.filter((setting) => isEditable(setting.key));
}

function overlayed(config: SettingsDeps["config"], stored: StoredGatewaySetting[]) {
  const merged: Record<string, unknown> = { ...config.gateway };
  for (const setting of applied(stored)) {
    if (setting.value === null) delete merged[setting.key];
    else merged[setting.key] = setting.value;
  }
  return gatewayDefaultsSchema.safeParse(merged);
}

/** The defaults new sandboxes get now. */
export async function effectiveGatewayDefaults(deps: SettingsDeps): Promise<GatewayDefaults> {
  const merged = overlayed(deps.config, await deps.store.settings.getGatewaySettings());
  // Every change was checked against these rules before it was stored.
  if (!merged.success) throw merged.error;
  return merged.data;
}

/** Each default in effect, with where it came from and what the configuration says. */
export async function gatewaySettings(deps: SettingsDeps): Promise<GatewaySetting[]> {
  const stored = applied(await deps.store.settings.getGatewaySettings());
  return GATEWAY_KEYS.map((key) => {
    const change = stored.find((setting) => setting.key === key);
    const configured = deps.config.gateway[key] ?? null;
    return {
      key,
      value: change ? (change.value ?? null) : configured,
      source: change ? "berth" : deps.config.sources[key],
      configured,
      configuredBy: deps.config.sources[key],
      editable: isEditable(key),
      helmValue: helmValueFor(key),
      environmentVariable: environmentVariableFor(key),
      allowed: ALLOWED_GATEWAY_VALUES[key],
      changedBy: change?.updatedBy ?? null,
      changedAt: change?.updatedAt ?? null,
    };
  });
}

/** Zod's message, and what the key accepts, as the configuration says it at start. */
function withAllowed(problem: SpecProblem): SpecProblem {
  const key = problem.path[0];
  if (typeof key !== "string" || !isEditable(key)) return problem;
  return { ...problem, message: `${problem.message}. Allowed: ${ALLOWED_GATEWAY_VALUES[key]}` };
}

/**
 * Validates and applies a change (see gatewaySettingsChangeSchema), audited with the actor and
 * each key's value before and after. Answers the defaults in effect afterwards.
 */
export async function changeGatewaySettings(deps: SettingsDeps, input: unknown, actor: Actor): Promise<GatewaySetting[]> {
  const parsed = gatewaySettingsChangeSchema.safeParse(input);
  if (!parsed.success) throw new RequestRejectedError(problemsFromZodError(parsed.error).map(withAllowed));
  const { reset = [], ...values } = parsed.data;
  const changes = Object.fromEntries(Object.entries(values).filter(([key, value]) => isEditable(key) && value !== undefined)) as Partial<Record<EditableGatewayKey, string | null>>;
  const both = reset.filter((key) => key in changes);
  if (both.length > 0) {
    throw new RequestRejectedError(both.map((key) => ({ code: "custom", path: ["reset"], message: `reset names ${key}, which the change also sets: either set it or reset it` })));
  }
  // The whole result must pass the rules the configuration is checked with at start.
  const stored = applied(await deps.store.settings.getGatewaySettings());
  const kept = stored.filter((setting) => !(reset as string[]).includes(setting.key) && !(setting.key in changes));
  const changed = Object.entries(changes).map(([key, value]) => ({ key: key as GatewayDefaultKey, value, updatedAt: new Date(), updatedBy: actor.username }));
  const merged = overlayed(deps.config, [...kept, ...changed]);
  if (!merged.success) throw new RequestRejectedError(problemsFromZodError(merged.error).map(withAllowed));

  const configured = configuredValues(deps);
  if (reset.length > 0) await deps.store.settings.resetGatewaySettings(reset, actor, configured);
  if (Object.keys(changes).length > 0) await deps.store.settings.saveGatewaySettings(changes, actor, configured);
  return gatewaySettings(deps);
}

function configuredValues(deps: SettingsDeps): Partial<Record<GatewayDefaultKey, string | null>> {
  return Object.fromEntries(GATEWAY_KEYS.map((key) => [key, deps.config.gateway[key] ?? null]));
}

/** The audit log's entries for the gateway defaults (settings.update, settings.reset). */
export const SETTINGS_AUDIT_TARGET = { targetKind: "GatewaySettings", targetId: "gateway" } as const;
