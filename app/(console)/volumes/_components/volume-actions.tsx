"use client";

import Link from "next/link";
import type { Volume } from "@/lib/domain/volume.ts";
import { cloneClaimHref, mayDelete, mayStartSandboxFrom, startFromClaimHref, type VolumeClassTraits } from "@/lib/domain/volume-actions.ts";
import { DeleteVolumeDialog } from "./delete-volume-dialog.tsx";
import { ExpandVolumeDialog } from "./expand-volume-dialog.tsx";
import { ReclaimPolicyDialog } from "./reclaim-policy-dialog.tsx";
import styles from "./volume-actions.module.css";
import { permissionIn, permissionOnCluster, useViewer } from "@/app/(console)/_components/viewer-context.tsx";

/** What can be done to one claim: each offered only where the API would allow it, and Kubernetes lets the person. */
export function VolumeActions({ volume, classes, onChanged }: { volume: Volume; classes: VolumeClassTraits; onChanged: () => void }) {
  const you = useViewer();
  const may = (capability: "createSandboxes" | "createClaims" | "changeClaims" | "deleteClaims") => permissionIn(you, capability, volume.namespace).allowed;
  const bound = volume.phase === "Bound" && volume.storageClassName !== null;
  const expandable = may("changeClaims") && bound && classes.expandable.includes(volume.storageClassName!);
  const clonable = may("createClaims") && bound && classes.clonable.includes(volume.storageClassName!);
  return (
    <div className={styles.actions}>
      {may("createSandboxes") && mayStartSandboxFrom(volume) ? (
        <Link href={startFromClaimHref(volume)} className={styles.link} prefetch={false}>
          Start a sandbox<span className="visually-hidden"> from {volume.name}</span>
        </Link>
      ) : null}
      {clonable ? (
        <Link href={cloneClaimHref(volume)} className={styles.link} prefetch={false}>
          Clone<span className="visually-hidden"> {volume.name}</span>
        </Link>
      ) : null}
      {volume.persistentVolume && permissionOnCluster(you, "changeVolumes").allowed ? <ReclaimPolicyDialog volume={{ ...volume, persistentVolume: volume.persistentVolume }} onChanged={onChanged} /> : null}
      {expandable ? <ExpandVolumeDialog volume={volume} onChanged={onChanged} /> : null}
      {may("deleteClaims") && mayDelete(volume) ? <DeleteVolumeDialog volume={volume} onChanged={onChanged} /> : null}
    </div>
  );
}
