"use client";

import Link from "next/link";
import type { Volume } from "@/lib/domain/volume.ts";
import { mayDelete, mayStartSandboxFrom, startFromClaimHref } from "@/lib/domain/volume-actions.ts";
import { DeleteVolumeDialog } from "./delete-volume-dialog.tsx";
import { ExpandVolumeDialog } from "./expand-volume-dialog.tsx";
import styles from "./volume-actions.module.css";
import { permissionIn, useViewer } from "@/app/(console)/_components/viewer-context.tsx";

/** What can be done to one claim: each offered only where the API would allow it, and Kubernetes lets the person. */
export function VolumeActions({ volume, expandableClasses, onChanged }: { volume: Volume; expandableClasses: readonly string[]; onChanged: () => void }) {
  const you = useViewer();
  const may = (capability: "createSandboxes" | "changeClaims" | "deleteClaims") => permissionIn(you, capability, volume.namespace).allowed;
  const expandable = may("changeClaims") && volume.phase === "Bound" && volume.storageClassName !== null && expandableClasses.includes(volume.storageClassName);
  return (
    <div className={styles.actions}>
      {may("createSandboxes") && mayStartSandboxFrom(volume) ? (
        <Link href={startFromClaimHref(volume)} className={styles.link} prefetch={false}>
          Start a sandbox<span className="visually-hidden"> from {volume.name}</span>
        </Link>
      ) : null}
      {expandable ? <ExpandVolumeDialog volume={volume} onChanged={onChanged} /> : null}
      {may("deleteClaims") && mayDelete(volume) ? <DeleteVolumeDialog volume={volume} onChanged={onChanged} /> : null}
    </div>
  );
}
