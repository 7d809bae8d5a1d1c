import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { PageHeader } from "@/app/components/page-header.tsx";
import { gatewayLimitsSchema } from "@/lib/domain/gateway-limits.ts";
import { effectiveGatewayDefaults } from "@/lib/sandboxes/gateway-settings.ts";
import { visibleTemplates } from "@/lib/server/template-service.ts";
import { requireViewer } from "../../../_components/page-caller.ts";
import { permissionIn } from "../../../_components/permissions.ts";
import { RefusedPage } from "../../../_components/refused-page.tsx";
import { CreateTemplateForm } from "../../new/_components/create-template-form.tsx";

export const metadata: Metadata = { title: "Edit template" };

/** A template made through Berth, in the create form, to change and save. */
export default async function EditTemplatePage({ params }: { params: Promise<{ namespace: string; name: string }> }) {
  const { namespace, name } = await params;
  const { runtime, caller, you } = await requireViewer();
  // One the person may not list is, for them, no template at all.
  const template = (await visibleTemplates(runtime, caller.person, namespace).catch(() => [])).find((one) => one.name === name);
  if (!template) notFound();
  const header = <PageHeader title={`Edit template ${name}`} description={`In ${namespace}. New sandboxes from it get the change; waiting ones follow its pool's update strategy.`} />;
  const permission = permissionIn(you, "changeTemplates", namespace);
  if (!permission.allowed) {
    return (
      <RefusedPage header={header} title="Kubernetes does not let you change templates here">
        {permission.reason}
      </RefusedPage>
    );
  }
  if (!template.spec) {
    return (
      <RefusedPage header={header} title="This template was not made through Berth">
        Berth shows it but does not change it: it would overwrite what it cannot read. Change it where it was made.
      </RefusedPage>
    );
  }
  const defaults = await effectiveGatewayDefaults(runtime);
  return (
    <>
      {header}
      <CreateTemplateForm defaults={defaults} limits={gatewayLimitsSchema.parse(runtime.config.limits)} editing={JSON.parse(JSON.stringify({ ...template.spec, namespace }))} />
    </>
  );
}
