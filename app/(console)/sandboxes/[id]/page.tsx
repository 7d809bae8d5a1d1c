import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { PageHeader } from "@/app/components/page-header.tsx";
import type { SandboxRecord } from "@/lib/domain/sandbox-record.ts";
import { requireViewer } from "../../_components/page-caller.ts";
import { SandboxChanges } from "./_components/sandbox-changes.tsx";
import { sandboxStorage, withClaimUsage } from "./_components/sandbox-claims.ts";
import { claimUsages } from "@/lib/server/volume-service.ts";
import { SandboxDetail } from "./_components/sandbox-detail.tsx";

type Props = { params: Promise<{ id: string }> };

const CHANGES_SHOWN = 20;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The sandbox, if the viewer may see it: one they may not is, for them, no sandbox at all. */
async function visibleSandbox(id: string): Promise<SandboxRecord | null> {
  const { runtime, caller } = await requireViewer();
  const record = UUID.test(id) ? (runtime.live.get(id) ?? (await runtime.store.sandboxes.getSandbox(id))) : null;
  if (!record) return null;
  const visible = await runtime.identity.decisions.allows(caller.person, { resource: { verb: "get", group: "agents.x-k8s.io", resource: "sandboxes", namespace: record.namespace, name: record.name } });
  return visible ? record : null;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const record = await visibleSandbox((await params).id);
  return { title: record ? record.name : "No such sandbox" };
}

/**
 * One sandbox: its status, what it runs on and with, the actions that make sense now, a
 * command runner, and its timeline. The first render reads the store directly; from there the
 * client parts follow the event stream.
 */
export default async function SandboxPage({ params }: Props) {
  const { id } = await params;
  const { runtime } = await requireViewer();
  const record = await visibleSandbox(id);
  if (!record) notFound();
  const storage = sandboxStorage(record, runtime.config.gateway);
  const [timeline, checkpoints, changes, usages] = await Promise.all([
    runtime.store.timeline.listAllForSandbox(id),
    runtime.store.checkpoints.listCheckpoints(id),
    runtime.store.audit.listChanges({ limit: CHANGES_SHOWN, targetKind: "Sandbox", targetId: id }),
    // Figures are a nicety: a page without them still shows the sandbox.
    claimUsages(runtime, record.namespace, storage.claims.map((claim) => claim.name)).catch(() => new Map()),
  ]);
  return (
    <>
      <p>
        <Link href="/sandboxes">← Sandboxes</Link>
      </p>
      <PageHeader title={record.name} description={`Sandbox in namespace ${record.namespace}${record.origin === "cluster" ? ", found in the cluster (made outside Berth)" : ""}.`} />
      <SandboxDetail
        initial={{ record, timeline, checkpoints }}
        storage={withClaimUsage(storage, usages)}
        initialAt={Date.now()}
        changes={<SandboxChanges entries={changes.items} more={changes.nextCursor !== null} />}
      />
    </>
  );
}
