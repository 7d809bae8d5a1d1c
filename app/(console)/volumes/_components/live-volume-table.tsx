"use client";

import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useCallback, useRef } from "react";
import { EmptyState } from "@/app/components/empty-state.tsx";
import { VolumeIcon } from "@/app/components/icons.tsx";
import tableStyles from "@/app/components/data-table.module.css";
import type { Volume } from "@/lib/domain/volume.ts";
import { fetchVolumes, OWNERSHIP_LIFECYCLE } from "./volume-rows.ts";
import { VolumeActions } from "./volume-actions.tsx";
import { isResizing, isSettling, reclaimPolicyMeaning, type VolumeClassTraits } from "@/lib/domain/volume-actions.ts";
import styles from "./live-volume-table.module.css";
import { UsageMeter } from "@/app/components/usage-meter.tsx";
import { useServerRenderedQuery } from "@/app/(console)/_components/server-rendered.ts";

const SETTLE_POLL_MS = 2_000;
/** How often the figures of mounted claims are looked at again: the kubelets refresh theirs about once a minute. */
const USAGE_POLL_MS = 30_000;
/** How long after an action of this page the list is looked at again, for the cluster to catch up. */
const AFTER_ACTION_MS = 30_000;

const STATE_LABELS: Record<Volume["state"], string> = { attached: "Attached", detached: "Detached", orphaned: "Orphaned" };

function Binding({ volume }: { volume: Volume }) {
  const bound = volume.persistentVolume;
  if (volume.phase === "Bound") {
    return (
      <>
        <span>Bound</span>
        {bound ? (
          <span className={styles.sub} title={reclaimPolicyMeaning(bound.reclaimPolicy === "Retain" ? "Retain" : "Delete")}>
            {bound.name} · {bound.reclaimPolicy === "Retain" ? "kept after the claim" : "deleted with the claim"}
          </span>
        ) : null}
      </>
    );
  }
  return (
    <span className={styles.warning} title={volume.pendingReason ?? undefined}>
      {volume.phase}
      {volume.pendingReason ? <span className={styles.why}>{volume.pendingReason}</span> : null}
    </span>
  );
}

/** Every claim Berth knows, kept current by the event stream. */
export function LiveVolumeTable({ initialVolumes, initialAt, classes }: { initialVolumes: Volume[]; initialAt: number; classes: VolumeClassTraits }) {
  const queryClient = useQueryClient();
  const pollUntil = useRef(0);
  const { data: volumes, error } = useServerRenderedQuery(
    {
      queryKey: ["volumes"],
      queryFn: ({ signal }) => fetchVolumes(signal),
      // The event stream tells of sandboxes, not of every claim change (a resize done, a pod that
      // let go of a claim): while one is under way, and for a while after an action here, look again.
      refetchInterval: (query) => {
        const data = query.state.data;
        if (data?.some((volume) => isSettling(volume)) || Date.now() < pollUntil.current) return SETTLE_POLL_MS;
        return data?.some((volume) => volume.attachedTo) ? USAGE_POLL_MS : false;
      },
    },
    initialVolumes,
  );
  const onChanged = useCallback(() => {
    pollUntil.current = Date.now() + AFTER_ACTION_MS;
    void queryClient.invalidateQueries({ queryKey: ["volumes"] });
  }, [queryClient]);
  if (volumes.length === 0) {
    return (
      <EmptyState icon={<VolumeIcon />} title="No volume claims yet">
        <p>
          A sandbox with a <code>pvc</code> workspace gets its claim here as soon as it is created, with its owner, binding and
          storage class. Ephemeral sandboxes have none: their workspace is an <code>emptyDir</code> that lives and dies with the pod.
        </p>
      </EmptyState>
    );
  }
  const caption = `Volume claims (${volumes.length})`;
  return (
    <>
      {error ? <p className={styles.warning} role="alert">Could not refresh the list: {(error as Error).message}. Showing the last one received.</p> : null}
      <div className={tableStyles.frame} role="region" aria-label={caption} tabIndex={0}>
        <table className={tableStyles.table}>
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              <th scope="col">Claim</th>
              <th scope="col">Sandbox</th>
              <th scope="col">Ownership</th>
              <th scope="col">Binding</th>
              <th scope="col">Class</th>
              <th scope="col" className={tableStyles.numeric}>Size</th>
              <th scope="col">Used</th>
              <th scope="col">Pinned to node</th>
              <th scope="col">State</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {volumes.map((volume) => (
              <tr key={`${volume.namespace}/${volume.name}`}>
                <th scope="row" className={tableStyles.primary}>
                  <Link href={`/volumes/${volume.namespace}/${volume.name}`} prefetch={false}>
                    {volume.name}
                  </Link>
                  <span className={styles.sub}>{volume.namespace} · {volume.usage}</span>
                </th>
                <td>{volume.sandbox ? `${volume.sandbox.name}${volume.sandbox.deleted ? " (deleted)" : ""}` : <span className={styles.muted}>{volume.state === "orphaned" ? "unknown" : "none yet"}</span>}</td>
                <td title={volume.ownership ? OWNERSHIP_LIFECYCLE[volume.ownership] : undefined}>{volume.ownership ?? "—"}</td>
                <td>
                  <Binding volume={volume} />
                </td>
                <td className={tableStyles.mono}>{volume.storageClassName ?? <span className={styles.muted}>none</span>}</td>
                <td className={tableStyles.numeric}>
                  {volume.capacity ?? volume.requested ?? "—"}
                  {isResizing(volume) ? <span className={styles.sub}>growing to {volume.requested}</span> : null}
                </td>
                <td>
                  <UsageMeter usage={volume} label={`How full ${volume.name} is`} />
                </td>
                <td className={tableStyles.mono}>{volume.pinnedToNode ?? <span className={styles.muted}>portable</span>}</td>
                <td>
                  <span data-state={volume.state} className={styles.state}>
                    {STATE_LABELS[volume.state]}
                  </span>
                  {volume.attachedTo ? <span className={styles.sub}>to {volume.attachedTo.pod}{volume.attachedTo.nodeName ? ` on ${volume.attachedTo.nodeName}` : ""}</span> : null}
                </td>
                <td>
                  <VolumeActions volume={volume} classes={classes} onChanged={onChanged} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
