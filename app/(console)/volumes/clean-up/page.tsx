import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/app/components/page-header.tsx";
import { requireViewer } from "../../_components/page-caller.ts";
import { CleanUpView } from "./_components/clean-up-view.tsx";

export const metadata: Metadata = { title: "Clean up storage" };

/** What storage is left over, for a person to delete what they no longer need in one step. */
export default async function CleanUpPage() {
  await requireViewer();
  return (
    <>
      <PageHeader
        title="Clean up storage"
        description="Claims no live sandbox uses, volumes kept after their claims (Released), and snapshots of claims that are gone: oldest first. Each deletion is made as you and recorded in the audit log."
        actions={<Link href="/volumes">All claims</Link>}
      />
      <CleanUpView />
    </>
  );
}
