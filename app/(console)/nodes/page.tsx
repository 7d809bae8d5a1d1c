import type { Metadata } from "next";
import { EmptyState } from "@/app/components/empty-state.tsx";
import { NodeIcon } from "@/app/components/icons.tsx";
import { PageHeader } from "@/app/components/page-header.tsx";

export const metadata: Metadata = { title: "Nodes" };

export default function NodesPage() {
  return (
    <>
      <PageHeader title="Nodes" description="Cluster nodes, the sandboxes running on each, and planned maintenance." />
      <EmptyState icon={<NodeIcon />} title="No nodes to show">
        <p>
          This version of Berth does not list nodes yet: that comes with its sandbox driver. Nodes and the sandboxes on
          them will appear here, with planned maintenance.
        </p>
      </EmptyState>
    </>
  );
}
