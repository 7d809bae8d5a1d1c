"use client";

import Link from "next/link";
import type { Volume } from "@/lib/domain/volume.ts";
import { mayDelete, mayStartSandboxFrom, startFromClaimHref } from "@/lib/domain/volume-actions.ts";
import { DeleteVolumeDialog } from "./delete-volume-dialog.tsx";
import { ExpandVolumeDialog } from "./expand-volume-dialog.tsx";
import styles from "./volume-actions.module.css";

/** What can be done to one claim: each offered only where the API would allow it. */
export function VolumeActions({ volume, expandableClasses, onChanged }: { volume: Volume; expandableClasses: readonly string[]; onChanged: () => void }) {
  const expandable = volume.phase === "Bound" && volume.storageClassName !== null && expandableClasses.includes(volume.storageClassName);
  return (
    <div className={styles.actions}>
      {mayStartSandboxFrom(volume) ? (
        <Link href={startFromClaimHref(volume)} className={styles.link} prefetch={false}>
          Start a sandbox<span className="visually-hidden"> from {volume.name}</span>
        </Link>
      ) : null}
      {expandable ? <ExpandVolumeDialog volume={volume} onChanged={onChanged} /> : null}
      {mayDelete(volume) ? <DeleteVolumeDialog volume={volume} onChanged={onChanged} /> : null}
    </div>
  );
}
