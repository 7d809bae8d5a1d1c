import { formatTimestamp } from "@/app/components/format.ts";
import type { AuditEntry } from "@/lib/domain/audit.ts";
import { settingsChangeDetailsSchema } from "@/lib/domain/gateway-settings.ts";
import { displayValue, isGatewayKey, SETTING_PRESENTATION } from "./setting-presentation.ts";
import styles from "./settings-history.module.css";

function Value({ settingKey, value }: { settingKey: string; value: unknown }) {
  const shown = isGatewayKey(settingKey) ? displayValue(settingKey, value) : { kind: "literal" as const, text: JSON.stringify(value) };
  return shown.kind === "literal" ? <code>{shown.text}</code> : <em>{shown.text}</em>;
}

/** Who changed the gateway defaults, what (before → after) and when, newest first. */
export function SettingsHistory({ entries }: { entries: AuditEntry[] }) {
  if (entries.length === 0) return <p className={styles.empty}>No changes through Berth yet: every default comes from the configuration.</p>;
  return (
    <ol className={styles.list} aria-label="Changes to the gateway defaults">
      {entries.map((entry) => {
        const details = settingsChangeDetailsSchema.safeParse(entry.details);
        const changes = Object.entries(details.success ? (details.data.changes ?? {}) : {});
        return (
          <li key={entry.id} className={styles.entry}>
            <p className={styles.meta}>
              <time dateTime={entry.at.toISOString()}>{formatTimestamp(entry.at)}</time> · <strong>{entry.actor}</strong>{" "}
              {entry.action === "settings.reset" ? "reset to the configuration" : "changed"}
            </p>
            <ul className={styles.changes}>
              {changes.map(([key, change]) => (
                <li key={key}>
                  {isGatewayKey(key) ? SETTING_PRESENTATION[key].label : key}: <Value settingKey={key} value={change.from} /> → <Value settingKey={key} value={change.to} />
                </li>
              ))}
            </ul>
          </li>
        );
      })}
    </ol>
  );
}
