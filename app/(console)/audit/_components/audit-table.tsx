import { formatTimestamp } from "@/app/components/format.ts";
import { ToneBadge } from "@/app/components/tone-badge.tsx";
import tableStyles from "@/app/components/data-table.module.css";
import type { AuditEntry } from "@/lib/domain/audit.ts";
import styles from "./audit.module.css";

/** What went wrong with a refused or failed change, as the edge recorded it (status, code, detail). */
function failureOf(entry: AuditEntry): string | null {
  if (entry.outcome === "Succeeded") return null;
  const { status, detail } = entry.details as { status?: unknown; detail?: unknown };
  const parts = [typeof status === "number" ? String(status) : null, typeof detail === "string" ? detail : null].filter(Boolean);
  return parts.length > 0 ? parts.join(" · ") : null;
}

export function AuditTable({ entries, filtered, olderHref }: { entries: AuditEntry[]; filtered: boolean; olderHref: string | null }) {
  if (entries.length === 0) {
    return <p className={styles.empty}>{filtered ? "No change matches these filters." : "No change has been made through Berth yet."}</p>;
  }
  return (
    <>
      <div className={tableStyles.frame} role="region" aria-label="Audit log entries" tabIndex={0}>
        <table className={tableStyles.table} aria-label="Audit log">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">Action</th>
              <th scope="col">Target</th>
              <th scope="col">Decision</th>
              <th scope="col">Outcome</th>
              <th scope="col">Request</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => {
              const failure = failureOf(entry);
              return (
                <tr key={entry.id}>
                  <td>
                    <time dateTime={entry.at.toISOString()}>{formatTimestamp(entry.at)}</time>
                  </td>
                  <td>
                    <span className={styles.actor}>{entry.actor}</span>
                    {entry.actorGroups.length > 0 ? <span className={styles.groups}>{entry.actorGroups.join(", ")}</span> : null}
                  </td>
                  <td>
                    <code>{entry.action}</code>
                  </td>
                  <td className={styles.target}>
                    {entry.targetKind} <code>{entry.targetId}</code>
                    {failure ? <span className={styles.failure}>{failure}</span> : null}
                  </td>
                  <td>
                    <ToneBadge tone={entry.decision === "Allowed" ? "ok" : "danger"}>{entry.decision}</ToneBadge>
                  </td>
                  <td>
                    <ToneBadge tone={entry.outcome === "Succeeded" ? "ok" : "danger"}>{entry.outcome}</ToneBadge>
                  </td>
                  <td>
                    <code className={styles.requestId}>{entry.requestId ?? "—"}</code>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {olderHref ? (
        <p className={styles.more}>
          <a href={olderHref}>Older entries</a>
        </p>
      ) : null}
    </>
  );
}
