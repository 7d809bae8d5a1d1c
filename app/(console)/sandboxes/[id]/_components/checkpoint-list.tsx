import { formatTimestamp } from "@/app/components/format.ts";
import tableStyles from "@/app/components/data-table.module.css";
import type { Checkpoint } from "@/lib/domain/checkpoint.ts";
import styles from "./sandbox-detail.module.css";
import { ScrollRegion } from "./scroll-region.tsx";

function snapshotText(checkpoint: Checkpoint): string {
  if (!checkpoint.snapshotName) return "—";
  if (checkpoint.snapshotError) return `${checkpoint.snapshotName}: failed (${checkpoint.snapshotError})`;
  return `${checkpoint.snapshotName}: ${checkpoint.snapshotReady ? "ready" : "not ready yet"}`;
}

/** The sandbox's checkpoints, newest first, as GET /api/v1/sandboxes/{id}/checkpoints lists them. */
export function CheckpointList({ checkpoints }: { checkpoints: Checkpoint[] }) {
  if (checkpoints.length === 0) return <p className={styles.muted}>No checkpoints yet. Checkpoint runs the sandbox&apos;s hook, flushes the workspace and writes the state marker.</p>;
  return (
    <ScrollRegion label={"Checkpoints"}>
      <table className={tableStyles.table} aria-label="Checkpoints">
        <thead>
          <tr>
            <th scope="col">Started</th>
            <th scope="col">Trigger</th>
            <th scope="col">Result</th>
            <th scope="col" className={tableStyles.numeric}>Took</th>
            <th scope="col">Marker</th>
            <th scope="col">Snapshot</th>
          </tr>
        </thead>
        <tbody>
          {checkpoints.map((checkpoint) => (
            <tr key={checkpoint.id}>
              <th scope="row">
                <time dateTime={checkpoint.startedAt.toISOString()}>{formatTimestamp(checkpoint.startedAt)}</time>
              </th>
              <td>{checkpoint.trigger}</td>
              <td title={checkpoint.hookOutputTail ?? undefined}>{checkpoint.result}</td>
              <td className={tableStyles.numeric}>{checkpoint.durationMs === null ? "—" : `${checkpoint.durationMs} ms`}</td>
              <td>{checkpoint.markerWritten ? "Written" : "Not written"}</td>
              <td className={styles.wrap}>{snapshotText(checkpoint)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
