"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import Link from "next/link";
import { useMemo, useRef, useState } from "react";
import { useNow } from "@/app/(console)/_components/use-now.ts";
import { EmptyState } from "@/app/components/empty-state.tsx";
import { formatAge, formatTimestamp } from "@/app/components/format.ts";
import { SandboxIcon } from "@/app/components/icons.tsx";
import { PhaseBadge } from "@/app/components/phase-badge.tsx";
import tableStyles from "@/app/components/data-table.module.css";
import { SANDBOX_PHASES } from "@/lib/domain/sandbox-status.ts";
import { fetchSandboxRows, filterRows, type SandboxRow } from "./sandbox-rows.ts";
import styles from "./live-sandbox-table.module.css";
import { useServerRenderedQuery } from "@/app/(console)/_components/server-rendered.ts";

const ROW_HEIGHT = 45;
const COLUMNS = 9;

function Protection({ row }: { row: SandboxRow }) {
  const protection = row.protection;
  if (!protection?.protected) return <span className={styles.muted}>—</span>;
  return protection.drainBlocked ? <span className={styles.warning}>Protected · drain blocked</span> : <span>Protected</span>;
}

function LastDisruption({ row, now }: { row: SandboxRow; now: Date }) {
  const disruption = row.disruption;
  if (!disruption) return <span className={styles.muted}>—</span>;
  const at = new Date(disruption.at);
  return (
    <span title={formatTimestamp(at)}>
      {disruption.reason} · {formatAge(at, now)} ago
    </span>
  );
}

/** A pool member waiting, or a sandbox handed to a claim: said under its name. */
function Handout({ handout }: { handout: SandboxRow["handout"] }) {
  if (!handout) return null;
  const text = handout.pool ? `waiting in warm pool ${handout.pool}` : `claim ${handout.claim}${handout.launchType ? `, ${handout.launchType} start` : ""}`;
  return <span className={styles.sub}>{text}</span>;
}

/**
 * Every live sandbox, kept current by the event stream (LiveUpdates puts each sandbox it pushes
 * into the list), filtered by phase and a search, and virtualized: only the rows in view are in
 * the DOM, so a thousand sandboxes scroll as smoothly as ten. The server sends the first screen
 * of rows (`initialRows` of `total`); the rest are read as the table mounts, and until they are
 * here the count says so and the filters, which would see only part of the list, wait.
 */
export function LiveSandboxTable({ initialRows, total, initialAt }: { initialRows: SandboxRow[]; total: number; initialAt: number }) {
  const [whole, setWhole] = useState(initialRows.length >= total);
  const { data: all, error } = useServerRenderedQuery(
    {
      queryKey: ["sandboxes"],
      queryFn: async ({ signal }) => {
        const rows = await fetchSandboxRows(signal);
        setWhole(true);
        return rows;
      },
    },
    initialRows,
  );
  const [phase, setPhase] = useState("");
  const [search, setSearch] = useState("");
  const rows = useMemo(() => filterRows(all, { phase, search }), [all, phase, search]);
  const now = useNow(initialAt, 15_000);
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    // The server renders the first screenful; the browser measures from there.
    initialRect: { width: 1200, height: 720 },
  });

  if (all.length === 0) {
    return (
      <EmptyState icon={<SandboxIcon />} title="No sandboxes yet">
        <p>
          <Link href="/sandboxes/new">Create one</Link> here or through the API (<code>POST /api/v1/sandboxes</code>); a
          Sandbox made with kubectl or another gateway shows up too. Each appears as soon as it exists, and its phase
          follows the cluster live.
        </p>
      </EmptyState>
    );
  }

  const items = virtualizer.getVirtualItems();
  const before = items[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);
  const caption = `Sandboxes (${rows.length} of ${all.length})`;
  return (
    <>
      <div className={styles.toolbar}>
        <label className={styles.field}>
          <span>Search</span>
          <input type="search" value={search} onChange={(event) => setSearch(event.target.value)} placeholder="Name, namespace or node" disabled={!whole} />
        </label>
        <label className={styles.field}>
          <span>Phase</span>
          <select value={phase} onChange={(event) => setPhase(event.target.value)} disabled={!whole}>
            <option value="">All phases</option>
            {SANDBOX_PHASES.filter((one) => one !== "Deleted").map((one) => (
              <option key={one} value={one}>
                {one}
              </option>
            ))}
          </select>
        </label>
        <span className={styles.count} aria-live="polite">
          {!whole
            ? `The newest ${all.length} of ${total} sandboxes; reading the rest…`
            : rows.length === all.length
              ? `${all.length} ${all.length === 1 ? "sandbox" : "sandboxes"}`
              : `${rows.length} of ${all.length} sandboxes`}
        </span>
        {error ? <span className={styles.warning} role="alert">Could not refresh the list: {(error as Error).message}. Showing the last one received.</span> : null}
      </div>
      <div ref={scroller} className={`${tableStyles.frame} ${styles.scroller}`} role="region" aria-label={caption} tabIndex={0}>
        <table className={tableStyles.table} aria-rowcount={rows.length + 1}>
          <caption className="visually-hidden">{caption}</caption>
          <thead className={styles.stickyHead}>
            <tr aria-rowindex={1}>
              <th scope="col">Name</th>
              <th scope="col">Namespace</th>
              <th scope="col">Phase</th>
              <th scope="col">Profile</th>
              <th scope="col">Workspace</th>
              <th scope="col">Node</th>
              <th scope="col" className={tableStyles.numeric}>Age</th>
              <th scope="col">Protection</th>
              <th scope="col">Last disruption</th>
            </tr>
          </thead>
          <tbody>
            {before > 0 ? (
              <tr aria-hidden="true">
                <td colSpan={COLUMNS} style={{ height: before, padding: 0, border: 0 }} />
              </tr>
            ) : null}
            {items.map((item) => {
              const row = rows[item.index]!;
              const created = row.createdAt;
              return (
                <tr key={row.id} aria-rowindex={item.index + 2} data-index={item.index} ref={virtualizer.measureElement}>
                  <th scope="row" className={tableStyles.primary} elementtiming="sandbox-name">
                    <Link href={`/sandboxes/${row.id}`}>{row.name}</Link>
                    <Handout handout={row.handout} />
                  </th>
                  <td className={tableStyles.mono}>{row.namespace}</td>
                  <td title={row.message ?? undefined}>
                    <PhaseBadge phase={row.phase} />
                    {row.reason ? <span className={styles.reason}>{row.reason}</span> : null}
                  </td>
                  <td>{row.profile}</td>
                  <td>{row.workspaceBackend === "ephemeral" ? "Ephemeral" : "Claim (pvc)"}</td>
                  <td className={tableStyles.mono}>{row.nodeName ?? <span className={styles.muted}>—</span>}</td>
                  <td className={tableStyles.numeric}>
                    <time dateTime={row.createdAt.toISOString()} title={`Created ${formatTimestamp(created)}`}>
                      {formatAge(created, now)}
                    </time>
                  </td>
                  <td>
                    <Protection row={row} />
                  </td>
                  <td>
                    <LastDisruption row={row} now={now} />
                  </td>
                </tr>
              );
            })}
            {after > 0 ? (
              <tr aria-hidden="true">
                <td colSpan={COLUMNS} style={{ height: after, padding: 0, border: 0 }} />
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
    </>
  );
}
