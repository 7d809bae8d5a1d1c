import { formatTimestamp } from "@/app/components/format.ts";
import { ToneBadge } from "@/app/components/tone-badge.tsx";
import type { AuditEntry } from "@/lib/domain/audit.ts";
import styles from "./sandbox-changes.module.css";

/** The changes asked for on this sandbox, newest first: who (with their groups), what, and how it went. */
export function SandboxChanges({ entries, more }: { entries: AuditEntry[]; more: boolean }) {
  if (entries.length === 0) return <p className={styles.empty}>Nobody has changed this sandbox through Berth.</p>;
  return (
    <>
      <ol className={styles.list} aria-label="Changes to this sandbox">
        {entries.map((entry) => {
          const refused = entry.decision === "Denied" || entry.outcome === "Failed";
          const detail = (entry.details as { detail?: unknown }).detail;
          return (
            <li key={entry.id} className={styles.entry}>
              <time dateTime={entry.at.toISOString()}>{formatTimestamp(entry.at)}</time>
              <span>
                <strong>{entry.actor}</strong>
                {entry.actorGroups.length > 0 ? <span className={styles.groups}> ({entry.actorGroups.join(", ")})</span> : null} <code>{entry.action}</code>
                {refused && typeof detail === "string" ? <span className={styles.detail}>{detail}</span> : null}
              </span>
              <ToneBadge tone={refused ? "danger" : "ok"}>{entry.decision === "Denied" ? "Refused" : entry.outcome}</ToneBadge>
            </li>
          );
        })}
      </ol>
      {more ? <p className={styles.more}>Older changes are in the audit log, for those who may read it.</p> : null}
    </>
  );
}
