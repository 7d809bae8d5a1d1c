import type { Actor } from "../domain/audit.ts";
import { gatewayDefaultsSchema, type GatewayDefaults } from "../domain/gateway-defaults.ts";
import { writeAuditEntry } from "./audit-repository.ts";
import { type Db, toJson, Prisma } from "./prisma-client.ts";

export type GatewaySettingKey = keyof GatewayDefaults;

/** A gateway default changed through Berth. `value: null` means "unset" (e.g. the cluster's default class). */
export interface StoredGatewaySetting {
  key: GatewaySettingKey;
  value: GatewayDefaults[GatewaySettingKey] | null;
  updatedAt: Date;
  updatedBy: string;
}

type SettingValue = GatewayDefaults[GatewaySettingKey] | null;
type SettingValues = Partial<Record<GatewaySettingKey, SettingValue>>;
/** What a write changed, key by key; `null` is unset. */
export type SettingChanges = Partial<Record<GatewaySettingKey, { from: SettingValue; to: SettingValue }>>;

const isSameValue = (stored: unknown, value: SettingValue) => (stored ?? null) === value;

const KEYS = new Set<string>(Object.keys(gatewayDefaultsSchema.shape));
const isKey = (key: string): key is GatewaySettingKey => KEYS.has(key);

export function settingsRepository(db: Db) {
  return {
    /** The overrides made through Berth, by key. Keys this version no longer knows are skipped. */
    async getGatewaySettings(): Promise<StoredGatewaySetting[]> {
      const rows = await db.gatewaySetting.findMany({ orderBy: { key: "asc" } });
      return rows.flatMap((row) =>
        isKey(row.key)
          ? [{ key: row.key, value: row.value as StoredGatewaySetting["value"], updatedAt: row.updatedAt, updatedBy: row.updatedBy }]
          : [],
      );
    },

    /**
     * Saves overrides and their audit entry in one transaction: either both land or neither.
     * The caller has validated the values against the whole configuration. A key whose override
     * already holds that value is left out; with nothing left, nothing is written or audited.
     * `configured` (what the configuration says) lets the audit entry say what a key changed
     * from when it had no override yet; without it, that is recorded as null.
     */
    async saveGatewaySettings(changes: SettingValues, actor: Actor, configured: SettingValues = {}): Promise<SettingChanges> {
      const entries = Object.entries(changes).filter(([key]) => isKey(key)) as [GatewaySettingKey, SettingValue | undefined][];
      return db.$transaction(async (tx) => {
        const before = await tx.gatewaySetting.findMany({ where: { key: { in: entries.map(([key]) => key) } } });
        const made: SettingChanges = {};
        for (const [key, value] of entries) {
          const to = value ?? null;
          const stored = before.find((row) => row.key === key);
          if (stored && isSameValue(stored.value, to)) continue;
          const json = to === null ? Prisma.JsonNull : toJson(to);
          await tx.gatewaySetting.upsert({
            where: { key },
            create: { key, value: json, updatedBy: actor.username },
            update: { value: json, updatedBy: actor.username },
          });
          made[key] = { from: stored ? (stored.value as SettingValue) : (configured[key] ?? null), to };
        }
        if (Object.keys(made).length === 0) return made;
        await writeAuditEntry(tx, {
          actor,
          action: "settings.update",
          targetKind: "GatewaySettings",
          targetId: "gateway",
          outcome: "Succeeded",
          details: { changes: made },
        });
        return made;
      });
    },

    /**
     * Drops overrides so the server's configuration applies again; audited like a change (from
     * the override to what `configured` says). Keys with no override are left out.
     */
    async resetGatewaySettings(keys: GatewaySettingKey[], actor: Actor, configured: SettingValues = {}): Promise<SettingChanges> {
      return db.$transaction(async (tx) => {
        const before = await tx.gatewaySetting.findMany({ where: { key: { in: keys } } });
        await tx.gatewaySetting.deleteMany({ where: { key: { in: keys } } });
        const made: SettingChanges = Object.fromEntries(
          before.filter((row) => isKey(row.key)).map((row) => [row.key, { from: row.value as SettingValue, to: configured[row.key as GatewaySettingKey] ?? null }]),
        );
        if (Object.keys(made).length === 0) return made;
        await writeAuditEntry(tx, {
          actor,
          action: "settings.reset",
          targetKind: "GatewaySettings",
          targetId: "gateway",
          outcome: "Succeeded",
          details: { keys, changes: made },
        });
        return made;
      });
    },
  };
}

export type SettingsRepository = ReturnType<typeof settingsRepository>;
