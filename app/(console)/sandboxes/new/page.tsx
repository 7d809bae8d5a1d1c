import type { Metadata } from "next";
import { PageHeader } from "@/app/components/page-header.tsx";
import { gatewayLimitsSchema } from "@/lib/domain/gateway-limits.ts";
import { claimRefOf } from "@/lib/domain/volume-actions.ts";
import { effectiveGatewayDefaults } from "@/lib/sandboxes/gateway-settings.ts";
import { requireViewer } from "../../_components/page-caller.ts";
import { CreateSandboxForm } from "./_components/create-sandbox-form.tsx";

export const metadata: Metadata = { title: "Create sandbox" };

export default async function CreateSandboxPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  // The defaults a sandbox created now gets: the configuration with the Settings page's changes.
  const { runtime } = await requireViewer();
  const defaults = await effectiveGatewayDefaults(runtime);
  // The limits a create is held to, so the form can say them and hold to them before it sends.
  const limits = gatewayLimitsSchema.parse(runtime.config.limits);
  // `?claim=<namespace>/<name>` starts the form from that claim (the Volumes page links here).
  const claim = claimRefOf((await searchParams)["claim"]);
  return (
    <>
      <PageHeader
        title="Create sandbox"
        description={claim ? `Starting from the claim ${claim.namespace}/${claim.name}: its files become the new sandbox's workspace.` : "An agent environment with its workspace stored the way you choose."}
      />
      <CreateSandboxForm defaults={defaults} limits={limits} claim={claim} />
    </>
  );
}
