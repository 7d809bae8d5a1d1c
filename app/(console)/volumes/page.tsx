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
          This version of Berth does not list claims yet: that comes with its sandbox driver. Workspace and extra
          volume claims will appear here with their owner, binding and storage class.
        </p>
      </EmptyState>
    </>
  );
}
