import type { Metadata } from "next";
import Link from "next/link";
import buttons from "@/app/components/buttons.module.css";
import { EmptyState } from "@/app/components/empty-state.tsx";
import { PageHeader } from "@/app/components/page-header.tsx";
import type { TemplateView } from "@/lib/domain/template-view.ts";
import { visibleTemplates } from "@/lib/server/template-service.ts";
import { requireViewer } from "../_components/page-caller.ts";
import { LiveTemplateTable } from "./_components/live-template-table.tsx";

export const metadata: Metadata = { title: "Templates" };

export default async function TemplatesPage() {
  const { runtime, caller, you } = await requireViewer();
  const creatable = you.namespaces.some((entry) => entry.may.includes("createTemplates"));
  const header = (
    <PageHeader
      title="Templates"
      description="What a platform team decides once for many sandboxes of a namespace — profile, image, workspace, disruption policy — and the warm pools that keep some of them started."
      actions={
        creatable ? (
          <Link href="/templates/new" className={buttons.primary}>
            Create template
          </Link>
        ) : (
          <span className={buttons.reason}>You may not create templates: you need berth-platform-admin.</span>
        )
      }
    />
  );
  let templates: TemplateView[];
  try {
    templates = await visibleTemplates(runtime, caller.person);
  } catch (error) {
    // No extensions (or no cluster): say so, and what to do, instead of an error page.
    return (
      <>
        {header}
        <EmptyState title="Templates are not available on this cluster">
          <p>{(error as Error).message}</p>
        </EmptyState>
      </>
    );
  }
  return (
    <>
      {header}
      <LiveTemplateTable initialTemplates={JSON.parse(JSON.stringify(templates))} />
    </>
  );
}
