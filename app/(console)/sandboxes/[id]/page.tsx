import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { PageHeader } from "@/app/components/page-header.tsx";
import { getRuntime } from "@/lib/server/runtime.ts";
import { sandboxStorage } from "./_components/sandbox-claims.ts";
import { SandboxDetail } from "./_components/sandbox-detail.tsx";

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  const record = await (await getRuntime()).store.sandboxes.getSandbox(id);
  return { title: record ? record.name : "No such sandbox" };
}

/**
 * One sandbox: its status, what it runs on and with, the actions that make sense now, a
 * command runner, and its timeline. The first render reads the store directly; from there the
 * client parts follow the event stream.
 */
export default async function SandboxPage({ params }: Props) {
  await connection();
  const { id } = await params;
  const runtime = await getRuntime();
  const record = await runtime.store.sandboxes.getSandbox(id);
  if (!record) notFound();
  const [timeline, checkpoints] = await Promise.all([runtime.store.timeline.listAllForSandbox(id), runtime.store.checkpoints.listCheckpoints(id)]);
  return (
    <>
      <p>
        <Link href="/sandboxes">← Sandboxes</Link>
      </p>
      <PageHeader title={record.name} description={`Sandbox in namespace ${record.namespace}${record.origin === "cluster" ? ", found in the cluster (made outside Berth)" : ""}.`} />
      <SandboxDetail initial={{ record, timeline, checkpoints }} storage={sandboxStorage(record, runtime.config.gateway)} initialAt={Date.now()} />
    </>
  );
}
