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
          Berth has no cluster connection yet in this version, so there are no nodes to list. Nodes and the sandboxes
          on them will appear here once Berth is connected to a cluster.
        </p>
      </EmptyState>
    </>
  );
}
