import type { Metadata } from "next";
import { PageHeader } from "@/app/components/page-header.tsx";
import { claimRefOf } from "@/lib/domain/volume-actions.ts";
import { effectiveGatewayDefaults } from "@/lib/sandboxes/gateway-settings.ts";
import { requireViewer } from "../../_components/page-caller.ts";
import { permissionIn } from "../../_components/permissions.ts";
import { RefusedPage } from "../../_components/refused-page.tsx";
import { initialClaimValues } from "./_components/claim-form-values.ts";
import { CreateClaimForm } from "./_components/create-claim-form.tsx";

export const metadata: Metadata = { title: "Create claim" };

export default async function CreateClaimPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { runtime, you } = await requireViewer();
  const defaults = await effectiveGatewayDefaults(runtime);
  // `?clone=<namespace>/<name>` starts the form as a clone of that claim (the Volumes page links here).
  const clone = claimRefOf((await searchParams)["clone"]);
  const header = (
    <PageHeader
      title="Create claim"
      description={clone ? `A copy of ${clone.namespace}/${clone.name}, made by its storage driver.` : "A PersistentVolumeClaim for sandboxes to use: empty, restored from a snapshot, or cloned from another claim."}
    />
  );
  const namespaces = you.namespaces.filter((entry) => entry.may.includes("createClaims")).map((entry) => entry.namespace);
  const permission = permissionIn(you, "createClaims", defaults.sandboxNamespace);
  if (namespaces.length === 0 && !permission.allowed) {
    return (
      <RefusedPage header={header} title="Kubernetes does not let you create claims">
        {permission.reason}
      </RefusedPage>
    );
  }
  const namespace = clone && namespaces.includes(clone.namespace) ? clone.namespace : namespaces.includes(defaults.sandboxNamespace) ? defaults.sandboxNamespace : namespaces[0]!;
  return (
    <>
      {header}
      <CreateClaimForm namespaces={namespaces} initial={initialClaimValues(namespace, clone ? { kind: "PersistentVolumeClaim", name: clone.name } : undefined)} />
    </>
  );
}
