"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { FormProvider, useForm } from "react-hook-form";
import { api } from "@/app/(console)/_components/api-client.ts";
import type { GatewayDefaults } from "@/lib/domain/gateway-defaults.ts";
import type { GatewayLimits } from "@/lib/domain/gateway-limits.ts";
import { initialFormValues, specFromForm, type CreateFormValues } from "./create-form-values.ts";
import { IdentitySection } from "./identity-section.tsx";
import type { DryRunResult } from "@/lib/domain/dry-run.ts";
import { ManifestPreview } from "./manifest-preview.tsx";
import { PolicySection } from "./policy-section.tsx";
import { specResolver } from "./spec-resolver.ts";
import { VolumesSection } from "./volumes-section.tsx";
import { WorkspaceSection } from "./workspace-section.tsx";
import buttons from "@/app/components/buttons.module.css";
import styles from "./create-sandbox-form.module.css";
import { DisabledUntilHydrated } from "@/app/(console)/_components/disabled-until-hydrated.tsx";
import { FormAlerts, refusalOn, type Refusal } from "./form-alerts.tsx";

// The create form: validated in the browser by the server's own validation (schema, rules and
// this gateway's limits, which the fields name), previewed by the server's dry run, and created
// with one POST. A refusal puts each message on its field and keeps
// everything typed.

export function CreateSandboxForm({ defaults, limits, claim }: { defaults: GatewayDefaults; limits: GatewayLimits; claim?: { namespace: string; name: string } }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const backend = defaults.workspaceBackend;
  const form = useForm<CreateFormValues>({ defaultValues: initialFormValues(backend, claim), resolver: specResolver(defaults, limits), mode: "onTouched" });
  const [busy, setBusy] = useState<"create" | "preview" | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [preview, setPreview] = useState<DryRunResult | null>(null);

  /** The server said no: its field messages on the fields, the rest above the buttons. */
  function refused(error: unknown) {
    setRefusal(refusalOn(form, error, "The sandbox could not be created"));
  }

  async function send<T>(what: "create" | "preview", request: () => Promise<T>): Promise<T | undefined> {
    setBusy(what);
    setRefusal(null);
    try {
      return await request();
    } catch (error) {
      refused(error);
      return undefined;
    } finally {
      setBusy(null);
    }
  }

  const create = form.handleSubmit(async (values) => {
    const answer = await send("create", () => api.createSandbox({ body: specFromForm(values, backend) }));
    if (answer === undefined || "dryRun" in answer) return;
    const { id } = answer;
    await queryClient.invalidateQueries({ queryKey: ["sandboxes"] });
    router.push(`/sandboxes/${id}`);
  });

  const showPreview = form.handleSubmit(async (values) => {
    setPreview(null);
    const answer = await send("preview", () => api.createSandbox({ query: { dryRun: "true" }, body: specFromForm(values, backend) }));
    if (answer !== undefined && "dryRun" in answer) setPreview(answer);
  });

  return (
    <FormProvider {...form}>
      <form onSubmit={create} noValidate className={styles.form} aria-label="Create sandbox">
        <DisabledUntilHydrated>
          <IdentitySection namespace={defaults.sandboxNamespace} limits={limits} />
          <WorkspaceSection defaults={defaults} limits={limits} />
          <VolumesSection limits={limits} />
          <PolicySection limits={limits} />
          <FormAlerts errors={form.formState.errors} submitted={form.formState.submitCount > 0} refusal={refusal} />
          <div className={styles.actions}>
            <button type="button" className={buttons.secondary} onClick={showPreview} disabled={busy !== null}>
              {busy === "preview" ? "Rendering…" : "Preview manifests"}
            </button>
            <button type="submit" className={buttons.primary} disabled={busy !== null}>
              {busy === "create" ? "Creating…" : "Create sandbox"}
            </button>
          </div>
          {preview ? <ManifestPreview answer={preview} /> : null}
        </DisabledUntilHydrated>
      </form>
    </FormProvider>
  );
}
