import type { Metadata } from "next";
import { PageHeader } from "@/app/components/page-header.tsx";
import { gatewayLimitsSchema } from "@/lib/domain/gateway-limits.ts";
import { effectiveGatewayDefaults } from "@/lib/sandboxes/gateway-settings.ts";
import { requireViewer } from "../../_components/page-caller.ts";
import { permissionIn } from "../../_components/permissions.ts";
import { RefusedPage } from "../../_components/refused-page.tsx";
import { CreateTemplateForm } from "./_components/create-template-form.tsx";

export const metadata: Metadata = { title: "Create template" };

export default async function CreateTemplatePage() {
  const { runtime, you } = await requireViewer();
  const defaults = await effectiveGatewayDefaults(runtime);
  const header = <PageHeader title="Create template" description="Every sandbox made from it gets these settings; a warm pool keeps some of them started, so a developer gets one in a second." />;
  const permission = permissionIn(you, "createTemplates", defaults.sandboxNamespace);
  if (!permission.allowed && !you.namespaces.some((entry) => entry.may.includes("createTemplates"))) {
    return (
      <RefusedPage header={header} title="Kubernetes does not let you create templates">
        {permission.reason}
      </RefusedPage>
    );
  }
  return (
    <>
      {header}
      <CreateTemplateForm defaults={defaults} limits={gatewayLimitsSchema.parse(runtime.config.limits)} />
    </>
  );
}
