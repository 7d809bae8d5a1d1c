"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { FormProvider, useForm } from "react-hook-form";
import { api } from "@/app/(console)/_components/api-client.ts";
import { DisabledUntilHydrated } from "@/app/(console)/_components/disabled-until-hydrated.tsx";
import { IdentitySection } from "@/app/(console)/sandboxes/new/_components/identity-section.tsx";
import { PolicySection } from "@/app/(console)/sandboxes/new/_components/policy-section.tsx";
import { VolumesSection } from "@/app/(console)/sandboxes/new/_components/volumes-section.tsx";
import { WorkspaceSection } from "@/app/(console)/sandboxes/new/_components/workspace-section.tsx";
import styles from "@/app/(console)/sandboxes/new/_components/create-sandbox-form.module.css";
import buttons from "@/app/components/buttons.module.css";
import type { GatewayDefaults } from "@/lib/domain/gateway-defaults.ts";
import type { GatewayLimits } from "@/lib/domain/gateway-limits.ts";
import type { SandboxTemplateSpec } from "@/lib/domain/sandbox-template.ts";
import { initialTemplateValues, templateFieldOf, templateFromForm, templateResolver, templateValuesOf, type TemplateFormValues } from "./template-form-values.ts";
import { WarmPoolSection } from "./warm-pool-section.tsx";
import { FormAlerts, refusalOn, type Refusal } from "@/app/(console)/sandboxes/new/_components/form-alerts.tsx";

// The template form: the sandbox form's sections (what each sandbox of the template is) and the
// template's own (what it is for, its warm pool), validated in the browser as the server will,
// created with one POST — or, given a template made through Berth, changed with one PUT (its name
// and namespace fixed). A refusal puts each message on its field and keeps everything typed.

export function CreateTemplateForm({ defaults, limits, editing }: { defaults: GatewayDefaults; limits: GatewayLimits; editing?: SandboxTemplateSpec & { namespace: string } }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const backend = defaults.workspaceBackend;
  const form = useForm<TemplateFormValues>({ defaultValues: editing ? templateValuesOf(editing, backend) : initialTemplateValues(backend), resolver: templateResolver(defaults, limits), mode: "onTouched" });
  const verb = editing ? "Save" : "Create";
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<Refusal | null>(null);

  const create = form.handleSubmit(async (values) => {
    const template = templateFromForm(values, backend);
    if (!template) return;
    setBusy(true);
    setRefusal(null);
    try {
      if (editing) await api.updateTemplate({ params: { namespace: editing.namespace, name: editing.name }, body: template });
      else await api.createTemplate({ body: template });
    } catch (error) {
      setRefusal(refusalOn(form, error, editing ? "The template could not be saved" : "The template could not be created", templateFieldOf));
      setBusy(false);
      return;
    }
    await queryClient.invalidateQueries({ queryKey: ["templates"] });
    router.push("/templates");
  });

  return (
    <FormProvider {...form}>
      <form onSubmit={create} noValidate className={styles.form} aria-label={`${verb} template`}>
        <DisabledUntilHydrated>
          <IdentitySection namespace={defaults.sandboxNamespace} limits={limits} making="template" fixedIdentity={editing !== undefined} />
          <WarmPoolSection />
          <WorkspaceSection defaults={defaults} limits={limits} />
          <VolumesSection limits={limits} />
          <PolicySection limits={limits} />
          <FormAlerts errors={form.formState.errors} submitted={form.formState.submitCount > 0} refusal={refusal} />
          <div className={styles.actions}>
            <button type="submit" className={buttons.primary} disabled={busy}>
              {busy ? `${verb === "Save" ? "Saving" : "Creating"}…` : `${verb} template`}
            </button>
          </div>
        </DisabledUntilHydrated>
      </form>
    </FormProvider>
  );
}
