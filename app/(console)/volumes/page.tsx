import type { Metadata } from "next";
import Link from "next/link";
import buttons from "@/app/components/buttons.module.css";
import { PageHeader } from "@/app/components/page-header.tsx";
import { NO_CLASS_TRAITS } from "@/lib/domain/volume-actions.ts";
import { volumeClassTraits } from "@/lib/server/volume-service.ts";
import { namespacesWithVisibleClaims } from "@/lib/server/visibility.ts";
import { requireViewer } from "../_components/page-caller.ts";
import { LiveVolumeTable } from "./_components/live-volume-table.tsx";

export const metadata: Metadata = { title: "Volumes" };

export default async function VolumesPage() {
  const { runtime, caller, you } = await requireViewer();
  const creatable = you.namespaces.some((entry) => entry.may.includes("createClaims"));
  const reconciler = runtime.reconciler.current();
  // Before Berth watches the cluster there is nothing to show yet; the table fills in live.
  const known = reconciler ? await reconciler.volumes() : [];
  const visible = await namespacesWithVisibleClaims(runtime, caller.person, known.map((volume) => volume.namespace));
  const volumes = JSON.parse(JSON.stringify(await runtime.volumeUsage.withUsage(known.filter((volume) => visible.has(volume.namespace)))));
  // Classes change rarely; without them the page still lists every claim, only without Expand and Clone.
  const classes = reconciler ? await volumeClassTraits(runtime).catch(() => NO_CLASS_TRAITS) : NO_CLASS_TRAITS;
  return (
    <>
      <PageHeader
        title="Volumes"
        description="PersistentVolumeClaims behind sandbox workspaces and extra volumes, and those made here for sandboxes to use, with who owns each one and how long it lives."
        actions={
          <>
            <Link href="/volumes/clean-up" className={buttons.secondary}>
              Clean up
            </Link>
            {creatable ? (
              <Link href="/volumes/new" className={buttons.primary}>
                Create claim
              </Link>
            ) : (
              <span className={buttons.reason}>You may not create claims: you need berth-developer in a namespace.</span>
            )}
          </>
        }
      />
      <LiveVolumeTable initialVolumes={volumes} initialAt={Date.now()} classes={classes} />
    </>
  );
}
