import Link from "next/link";
import { formatTimestamp } from "@/app/components/format.ts";
import { WORKSPACE_VOLUME_NAME } from "@/lib/domain/workspace.ts";
import type { SandboxStorage } from "./sandbox-claims.ts";
import tableStyles from "@/app/components/data-table.module.css";
import type { Checkpoint } from "@/lib/domain/checkpoint.ts";
import styles from "./sandbox-detail.module.css";
import { ScrollRegion } from "./scroll-region.tsx";

/** The claim a checkpoint's snapshot is of: the workspace's, where it has one. */
export function workspaceClaimOf(storage: SandboxStorage, namespace: string): { namespace: string; name: string } | null {
  const claim = storage.claims.find((one) => one.mountedBy.includes(WORKSPACE_VOLUME_NAME));
  return claim ? { namespace, name: claim.name } : null;
}

function snapshotState(checkpoint: Checkpoint): string {
  if (checkpoint.snapshotError) return `failed (${checkpoint.snapshotError})`;
  return checkpoint.snapshotReady ? "ready" : "not ready yet";
}

/** The snapshot a checkpoint made, linked to its row on the claim's page, where it can be restored. */
function SnapshotCell({ checkpoint, workspaceClaim }: { checkpoint: Checkpoint; workspaceClaim: { namespace: string; name: string } | null }) {
  if (!checkpoint.snapshotName) return <>—</>;
  const name = workspaceClaim ? <Link href={`/volumes/${workspaceClaim.namespace}/${workspaceClaim.name}#snapshot-${checkpoint.snapshotName}`}>{checkpoint.snapshotName}</Link> : checkpoint.snapshotName;
  return (
    <>
      {name}: {snapshotState(checkpoint)}
    </>
  );
}

/** The sandbox's checkpoints, newest first, as GET /api/v1/sandboxes/{id}/checkpoints lists them. */
export function CheckpointList({ checkpoints, workspaceClaim }: { checkpoints: Checkpoint[]; workspaceClaim: { namespace: string; name: string } | null }) {
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
              <td className={styles.wrap}>
                <SnapshotCell checkpoint={checkpoint} workspaceClaim={workspaceClaim} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
