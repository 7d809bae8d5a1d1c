import { formatTimestamp } from "@/app/components/format.ts";
import { ToneBadge } from "@/app/components/tone-badge.tsx";
import type { AuditEntry } from "@/lib/domain/audit.ts";
import styles from "./sandbox-changes.module.css";

/** What an entry's details say worth a line: the helper pod a claim was read through, and why it went. */
function detailsLine(entry: AuditEntry): string | null {
  const { pod, why } = entry.details as { pod?: unknown; why?: unknown };
  if (typeof pod !== "string") return null;
  return `helper pod ${pod}${typeof why === "string" ? `: ${why}` : ""}`;
}

/** The changes asked for on a sandbox or a claim (`subject`), newest first: who (with their groups), what, and how it went. */
export function SandboxChanges({ entries, more, subject = "sandbox" }: { entries: AuditEntry[]; more: boolean; subject?: "sandbox" | "claim" }) {
  if (entries.length === 0) return <p className={styles.empty}>Nobody has changed this {subject} through Berth.</p>;
  return (
    <>
      <ol className={styles.list} aria-label={`Changes to this ${subject}`}>
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
                {!refused && detailsLine(entry) ? <span className={styles.detail}>{detailsLine(entry)}</span> : null}
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
