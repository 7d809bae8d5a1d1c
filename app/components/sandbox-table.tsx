import type { SandboxPhase } from "@/lib/domain/sandbox-status.ts";
import { formatAge, formatTimestamp } from "./format.ts";
import { PhaseBadge } from "./phase-badge.tsx";
import styles from "./data-table.module.css";

export interface SandboxRow {
  id: string;
  name: string;
  namespace: string;
  phase: SandboxPhase;
  createdAt: Date;
}

/** The sandbox list as a plain table. Renders what it is given; fetching is the page's job. */
export function SandboxTable({ sandboxes, now, caption }: { sandboxes: readonly SandboxRow[]; now: Date; caption: string }) {
  return (
    // Focusable and named so that keyboard users can scroll the table when it is wider than the screen.
    <div className={styles.frame} role="region" aria-label={caption} tabIndex={0}>
      <table className={styles.table}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Namespace</th>
            <th scope="col">Phase</th>
            <th scope="col" className={styles.numeric}>
              Age
            </th>
          </tr>
        </thead>
        <tbody>
          {sandboxes.map((sandbox) => (
            <tr key={sandbox.id}>
              <th scope="row" className={styles.primary}>
                {sandbox.name}
              </th>
              <td className={styles.mono}>{sandbox.namespace}</td>
              <td>
                <PhaseBadge phase={sandbox.phase} />
              </td>
              <td className={styles.numeric}>
                <time dateTime={sandbox.createdAt.toISOString()} title={`Created ${formatTimestamp(sandbox.createdAt)}`}>
                  {formatAge(sandbox.createdAt, now)}
                </time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
