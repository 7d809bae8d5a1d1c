import type { Metadata } from "next";
import { connection } from "next/server";
import { PageHeader } from "@/app/components/page-header.tsx";
import { getRuntime } from "@/lib/server/runtime.ts";
import { LiveNodeList } from "./_components/live-node-list.tsx";

export const metadata: Metadata = { title: "Nodes" };

export default async function NodesPage() {
  await connection();
  const reconciler = (await getRuntime()).reconciler.current();
  return (
    <>
      <PageHeader title="Nodes" description="Cluster nodes, the sandboxes running on each, and what a drain would do to them." />
      <LiveNodeList initialNodes={reconciler?.nodeViews() ?? []} initialAt={Date.now()} />
    </>
  );
}
