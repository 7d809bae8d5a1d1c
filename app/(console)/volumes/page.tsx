import type { Metadata } from "next";
import { PageHeader } from "@/app/components/page-header.tsx";
import { expandableStorageClasses } from "@/lib/server/volume-service.ts";
import { namespacesWithVisibleClaims } from "@/lib/server/visibility.ts";
import { requireViewer } from "../_components/page-caller.ts";
import { LiveVolumeTable } from "./_components/live-volume-table.tsx";

export const metadata: Metadata = { title: "Volumes" };

export default async function VolumesPage() {
  const { runtime, caller } = await requireViewer();
  const reconciler = runtime.reconciler.current();
  // Before Berth watches the cluster there is nothing to show yet; the table fills in live.
  const known = reconciler ? await reconciler.volumes() : [];
  const visible = await namespacesWithVisibleClaims(runtime, caller.person, known.map((volume) => volume.namespace));
  const volumes = JSON.parse(JSON.stringify(known.filter((volume) => visible.has(volume.namespace))));
  // Classes change rarely; without them the page still lists every claim, only without Expand.
  const expandable = reconciler ? await expandableStorageClasses(runtime).catch(() => []) : [];
  return (
    <>
      <PageHeader title="Volumes" description="PersistentVolumeClaims behind sandbox workspaces and extra volumes, with who owns each one and how long it lives." />
      <LiveVolumeTable initialVolumes={volumes} initialAt={Date.now()} expandableClasses={expandable} />
    </>
  );
}
