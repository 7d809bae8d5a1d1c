import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Facts } from "@/app/(console)/sandboxes/[id]/_components/sandbox-facts.tsx";
import { SandboxChanges } from "@/app/(console)/sandboxes/[id]/_components/sandbox-changes.tsx";
import { Section } from "@/app/(console)/sandboxes/[id]/_components/section.tsx";
import { PageHeader } from "@/app/components/page-header.tsx";
import { UsageMeter } from "@/app/components/usage-meter.tsx";
import { NO_CLASS_TRAITS, reclaimPolicyMeaning, type VolumeClassTraits } from "@/lib/domain/volume-actions.ts";
import { namespacesWithVisibleClaims } from "@/lib/server/visibility.ts";
import { volumeClassTraits } from "@/lib/server/volume-service.ts";
import { requireViewer } from "../../../_components/page-caller.ts";
import { OWNERSHIP_LIFECYCLE } from "../../_components/volume-rows.ts";
import { ClaimFiles } from "./_components/claim-files.tsx";
import { ClaimMoves } from "./_components/claim-moves.tsx";
import { ClaimSnapshots } from "./_components/claim-snapshots.tsx";

export const metadata: Metadata = { title: "Claim" };

/** The latest changes shown; the audit log has them all. */
const HISTORY_SHOWN = 20;

/** One claim: whose it is, its volume, what it holds, its snapshots (taken, restored, deleted here), and what was done to it. */
export default async function ClaimPage({ params }: { params: Promise<{ namespace: string; name: string }> }) {
  const { namespace, name } = await params;
  const { runtime, caller } = await requireViewer();
  const reconciler = runtime.reconciler.current();
  // One the person may not list is, for them, no claim at all.
  const visible = await namespacesWithVisibleClaims(runtime, caller.person, [namespace]);
  const known = visible.has(namespace) && reconciler ? (await reconciler.volumes()).find((one) => one.namespace === namespace && one.name === name) : undefined;
  if (!known) notFound();
  const volume = (await runtime.volumeUsage.withUsage([known]))[0] ?? known;
  const classes: VolumeClassTraits = await volumeClassTraits(runtime).catch(() => NO_CLASS_TRAITS);
  const bound = volume.persistentVolume;
  const history = await runtime.store.audit.listChanges({ limit: HISTORY_SHOWN, targetKind: "PersistentVolumeClaim", targetId: `${namespace}/${name}` });
  return (
    <>
      <PageHeader title={`Claim ${name}`} description={`In ${namespace}: ${volume.usage === "workspace" ? "a workspace" : "a volume"}${volume.sandbox ? ` of sandbox ${volume.sandbox.name}${volume.sandbox.deleted ? " (deleted)" : ""}` : ", for no sandbox yet"}.`} />
      <Section title="Claim">
        <Facts
          rows={[
            ["Ownership", volume.ownership ? `${volume.ownership}: ${OWNERSHIP_LIFECYCLE[volume.ownership]}` : "—"],
            ["Binding", volume.phase === "Bound" ? "Bound" : `${volume.phase}${volume.pendingReason ? `: ${volume.pendingReason}` : ""}`],
            ["Class", volume.storageClassName ?? "none"],
            ["Size", volume.capacity ?? volume.requested ?? "—"],
            ["Access", volume.accessModes.join(", ") || "—"],
            ["Volume", bound ? `${bound.name}, ${bound.reclaimPolicy}: ${reclaimPolicyMeaning(bound.reclaimPolicy === "Retain" ? "Retain" : "Delete")}` : "not bound yet"],
            ["Pinned to node", volume.pinnedToNode ?? "no: portable"],
            ["Used", <UsageMeter usage={volume} label={`How full ${name} is`} />],
            ["Used by", volume.attachedTo ? `pod ${volume.attachedTo.pod}${volume.attachedTo.nodeName ? ` on ${volume.attachedTo.nodeName}` : ""}` : "nothing"],
          ]}
        />
        <p>
          <Link href="/volumes">All claims</Link>
        </p>
      </Section>
      <ClaimFiles namespace={namespace} claim={name} mounted={volume.attachedTo !== null} />
      <ClaimSnapshots namespace={namespace} claim={name} snapshotsSupported={volume.storageClassName !== null && classes.clonable.includes(volume.storageClassName)} storageClassName={volume.storageClassName} />
      <ClaimMoves namespace={namespace} claim={name} pinnedToNode={volume.pinnedToNode} portableClasses={[...classes.portable]} />
      <Section title="History">
        <SandboxChanges subject="claim" entries={history.items} more={history.nextCursor !== null} />
      </Section>
    </>
  );
}
