"use client";

import { useQuery } from "@tanstack/react-query";
import tableStyles from "@/app/components/data-table.module.css";
import { formatTimestamp } from "@/app/components/format.ts";
import { fetchRuns, runsKey } from "./maintenance-data.ts";
import type { MaintenanceRun } from "@/lib/domain/maintenance.ts";
import { MaintenanceRunDetails } from "./maintenance-run-details.tsx";
import { RUN_TONES } from "./maintenance-words.ts";
import styles from "./maintenance.module.css";
import buttons from "@/app/components/buttons.module.css";
import { ToneBadge } from "@/app/components/tone-badge.tsx";

/** The node's maintenance runs, newest first (kept current by the event stream and by the run view). */
/** The node's runs; not asked for at all when the person may not read maintenance runs. */
export function useNodeRuns(node: string, enabled = true) {
  return useQuery({ queryKey: runsKey(node), queryFn: ({ signal }) => fetchRuns(node, signal), enabled });
}

export const runHeadingId = (node: string) => `maintenance-run-${node}`;

/**
 * A node's maintenance: the run shown (the newest, or the one picked from the history) and the
 * history of its runs. Nothing at all for a node that never had one.
 */
export function NodeMaintenance({ node, runs, shownId, onShow }: { node: string; runs: MaintenanceRun[]; shownId: string | null; onShow: (id: string) => void }) {
  const shown = runs.find((run) => run.id === shownId) ?? runs[0];
  if (!shown) return null;
  const caption = `Maintenance history of ${node}`;
  return (
    <div className={styles.maintenance}>
      <MaintenanceRunDetails key={shown.id} node={node} initial={shown} headingId={runHeadingId(node)} />
      <table className={`${tableStyles.table} ${styles.history}`} aria-label={caption}>
        <caption className={styles.historyCaption}>Maintenance history</caption>
        <thead>
          <tr>
            <th scope="col">Started</th>
            <th scope="col">By</th>
            <th scope="col">Outcome</th>
            <th scope="col">Summary</th>
            <th scope="col">
              <span className="visually-hidden">Show</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <tr key={run.id} aria-current={run.id === shown.id ? "true" : undefined}>
              <th scope="row">{formatTimestamp(new Date(run.startedAt))}</th>
              <td>{run.actor}</td>
              <td>
                <ToneBadge tone={RUN_TONES[run.state]}>{run.state}</ToneBadge>
              </td>
              <td className={styles.why}>{run.message ?? "In progress"}</td>
              <td>
                {run.id === shown.id ? (
                  <span className={styles.muted}>Shown above</span>
                ) : (
                  <button type="button" className={`${buttons.secondary} ${buttons.compact}`} onClick={() => onShow(run.id)} aria-label={`Show the run started ${formatTimestamp(new Date(run.startedAt))}`}>
                    Show
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
