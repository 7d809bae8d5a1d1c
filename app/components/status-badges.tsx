import styles from "./status-badges.module.css";

export type StatusTone = "ok" | "neutral" | "warning" | "pending";

export interface StatusItem {
  /** What the badge is about, e.g. "Store". */
  label: string;
  /** Its state in a few words, e.g. "PGlite (embedded)". */
  value: string;
  tone: StatusTone;
  /** A longer explanation, shown on hover and read by screen readers. */
  description?: string;
}

/** The small status area in the header: one badge per subsystem. */
export function StatusBadges({ items }: { items: readonly StatusItem[] }) {
  return (
    <ul className={styles.list} aria-label="System status">
      {items.map((item) => (
        <li key={item.label} className={styles.badge} data-tone={item.tone} title={item.description}>
          <span className={styles.dot} aria-hidden="true" />
          <span className={styles.label}>{item.label}</span>
          <span className={styles.value}>{item.value}</span>
          {item.description ? <span className="visually-hidden">. {item.description}</span> : null}
        </li>
      ))}
    </ul>
  );
}
