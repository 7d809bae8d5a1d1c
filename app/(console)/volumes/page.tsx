import type { Metadata } from "next";
import { EmptyState } from "@/app/components/empty-state.tsx";
import { VolumeIcon } from "@/app/components/icons.tsx";
import { PageHeader } from "@/app/components/page-header.tsx";

export const metadata: Metadata = { title: "Volumes" };

export default function VolumesPage() {
  return (
    <>
      <PageHeader
        title="Volumes"
        description="PersistentVolumeClaims behind sandbox workspaces and extra volumes, with who owns each one."
      />
      <EmptyState icon={<VolumeIcon />} title="No volume claims to show">
        <p>
          Berth has no cluster connection yet in this version, so there are no claims to list. Workspace and extra
          volume claims will appear here, with their owner, binding and storage class, once Berth is connected to a
          cluster.
        </p>
      </EmptyState>
    </>
  );
}
