import type { GatewaySettingSource } from "@/lib/domain/gateway-settings.ts";
import styles from "./settings-list.module.css";

export type SettingSource = GatewaySettingSource;

export interface SettingEntry {
  /** The configuration key, e.g. `workspaceBackend`. */
  key: string;
  /** A human name, e.g. "Workspace backend". */
  label: string;
  /** The Helm value that sets it, e.g. `server.workspaceBackend`. */
  helmValue: string;
  /** One sentence on what it does. */
  description: string;
  /**
   * The effective value. `literal` values are shown as code; the others are words that stand for a
   * meaning rather than a string (e.g. "cluster default" for an unset storage class).
   */
  value: { kind: "literal"; text: string } | { kind: "meaning"; text: string };
  source: SettingSource;
  /** Which variable or file set it (or who changed it through Berth), when it did not come from the built-in default. */
  sourceDetail?: string;
}

const SOURCE_LABELS: Record<SettingSource, string> = {
  default: "Default",
  environment: "Environment variable",
  file: "Config file",
  berth: "Changed through Berth",
};

/** Read-only configuration as a definition list: name and Helm value, the value, and where it came from. */
export function SettingsList({ entries }: { entries: readonly SettingEntry[] }) {
  return (
    <dl className={styles.list}>
      {entries.map((entry) => (
        <div key={entry.key} className={styles.row} data-key={entry.key}>
          <dt className={styles.term}>
            <span className={styles.label}>{entry.label}</span>{" "}
            <span className={styles.helm}>
              <span className="visually-hidden">Helm value </span>
              <code>{entry.helmValue}</code>
            </span>
          </dt>
          <dd className={styles.help}>{entry.description}</dd>
          <dd className={styles.value}>
            <span className="visually-hidden">Value: </span>
            {entry.value.kind === "literal" ? (
              <code className={styles.literal}>{entry.value.text}</code>
            ) : (
              <span className={styles.meaning}>{entry.value.text}</span>
            )}
          </dd>
          <dd className={styles.source}>
            <span className="visually-hidden">Set by: </span>
            <span className={styles.sourceBadge} data-source={entry.source}>
              {SOURCE_LABELS[entry.source]}
            </span>
            {entry.sourceDetail ? (
              <>
                {" "}
                <code className={styles.sourceDetail}>{entry.sourceDetail}</code>
              </>
            ) : null}
          </dd>
        </div>
      ))}
    </dl>
  );
}
