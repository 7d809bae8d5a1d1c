import type { Metadata } from "next";
import { PageHeader } from "@/app/components/page-header.tsx";
import { visibleSandboxItems } from "@/lib/server/visibility.ts";
import { requireViewer } from "../_components/page-caller.ts";
import { RefusedPage } from "../_components/refused-page.tsx";
import { permissionOnCluster } from "../_components/permissions.ts";
import { LiveNodeList } from "./_components/live-node-list.tsx";

export const metadata: Metadata = { title: "Nodes" };

export default async function NodesPage() {
  const { runtime, caller, you } = await requireViewer();
  const header = <PageHeader title="Nodes" description="Cluster nodes, the sandboxes running on each, and what a drain would do to them." />;
  const permission = permissionOnCluster(you, "listNodes");
  if (!permission.allowed) {
    return (
      <RefusedPage header={header} title="Kubernetes does not let you list nodes">
        {permission.reason}
      </RefusedPage>
    );
  }
  const nodes = runtime.reconciler.current()?.nodeViews() ?? [];
  const initialNodes = await Promise.all(nodes.map(async (node) => ({ ...node, sandboxes: await visibleSandboxItems(runtime, caller.person, node.sandboxes) })));
  return (
    <>
      {header}
      <LiveNodeList initialNodes={initialNodes} initialAt={Date.now()} />
    </>
  );
}
