import type { Metadata } from "next";
import { connection } from "next/server";
import { PageHeader } from "@/app/components/page-header.tsx";
import { getRuntime } from "@/lib/server/runtime.ts";
import { LiveVolumeTable } from "./_components/live-volume-table.tsx";

export const metadata: Metadata = { title: "Volumes" };

export default async function VolumesPage() {
  await connection();
  const reconciler = (await getRuntime()).reconciler.current();
  // Before Berth watches the cluster there is nothing to show yet; the table fills in live.
  const volumes = reconciler ? JSON.parse(JSON.stringify(await reconciler.volumes())) : [];
  return (
    <>
      <PageHeader title="Volumes" description="PersistentVolumeClaims behind sandbox workspaces and extra volumes, with who owns each one and how long it lives." />
      <LiveVolumeTable initialVolumes={volumes} initialAt={Date.now()} />
    </>
  );
}
