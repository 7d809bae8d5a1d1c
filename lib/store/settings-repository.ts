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
     * The caller has validated the values against the whole configuration.
     */
    async saveGatewaySettings(changes: Partial<Record<GatewaySettingKey, GatewayDefaults[GatewaySettingKey] | null>>, actor: string): Promise<void> {
      const entries = Object.entries(changes).filter(([key]) => isKey(key));
      await db.$transaction(async (tx) => {
        const before = await tx.gatewaySetting.findMany({ where: { key: { in: entries.map(([key]) => key) } } });
        for (const [key, value] of entries) {
          const json = value === null || value === undefined ? Prisma.JsonNull : toJson(value);
          await tx.gatewaySetting.upsert({
            where: { key },
            create: { key, value: json, updatedBy: actor },
            update: { value: json, updatedBy: actor },
          });
        }
        await writeAuditEntry(tx, {
          actor,
          action: "settings.update",
          targetKind: "GatewaySettings",
          targetId: "gateway",
          outcome: "Succeeded",
          details: {
            changes: Object.fromEntries(
              entries.map(([key, value]) => [key, { from: before.find((row) => row.key === key)?.value ?? null, to: value ?? null }]),
            ),
          },
        });
      });
    },

    /** Drops overrides so the server's configuration applies again; audited like a change. */
    async resetGatewaySettings(keys: GatewaySettingKey[], actor: string): Promise<void> {
      await db.$transaction(async (tx) => {
        await tx.gatewaySetting.deleteMany({ where: { key: { in: keys } } });
        await writeAuditEntry(tx, {
          actor,
          action: "settings.reset",
          targetKind: "GatewaySettings",
          targetId: "gateway",
          outcome: "Succeeded",
          details: { keys },
        });
      });
    },
  };
}

export type SettingsRepository = ReturnType<typeof settingsRepository>;
