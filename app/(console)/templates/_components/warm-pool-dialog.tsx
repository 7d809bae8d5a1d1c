"use client";

import * as Dialog from "@radix-ui/react-dialog";
import { useId, useState } from "react";
import { api, send } from "@/app/(console)/_components/api-client.ts";
import buttons from "@/app/components/buttons.module.css";
import dialog from "@/app/components/dialog.module.css";
import { MAX_WARM_POOL_REPLICAS, WARM_POOL_UPDATE_STRATEGIES, type SandboxTemplateSpec, type WarmPool } from "@/lib/domain/sandbox-template.ts";
import type { TemplateView } from "@/lib/domain/template-view.ts";
import { DialogActions } from "@/app/(console)/_components/dialog-actions.tsx";

/** The template with its pool set to this (empty: no pool), as the edit sends it: the whole template. */
function withPool(spec: SandboxTemplateSpec, replicas: string, updateStrategy: WarmPool["updateStrategy"]): SandboxTemplateSpec {
  const { warmPool: _previous, ...rest } = spec;
  return replicas.trim() === "" ? rest : { ...rest, warmPool: { replicas: Number(replicas), updateStrategy } };
}

/** Resize a template's warm pool, change its update strategy, or remove it. */
export function WarmPoolDialog({ template, spec, onChanged }: { template: TemplateView; spec: SandboxTemplateSpec; onChanged: () => void }) {
  const ids = useId();
  const [open, setOpen] = useState(false);
  const [replicas, setReplicas] = useState(String(spec.warmPool?.replicas ?? ""));
  const [strategy, setStrategy] = useState<WarmPool["updateStrategy"]>(spec.warmPool?.updateStrategy ?? "OnReplenish");
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    setProblem(null);
    setReplicas(String(spec.warmPool?.replicas ?? ""));
    setStrategy(spec.warmPool?.updateStrategy ?? "OnReplenish");
  };

  const save = async () => {
    if (replicas.trim() !== "" && !/^\d+$/.test(replicas.trim())) {
      setProblem(`The pool size is a whole number from 0 to ${MAX_WARM_POOL_REPLICAS}, or empty for no pool.`);
      return;
    }
    setSaving(true);
    const result = await send(() => api.updateTemplate({ params: { namespace: template.namespace, name: template.name }, body: withPool(spec, replicas, strategy) }));
    setSaving(false);
    if (!result.ok) {
      setProblem(result.fields.find((one) => one.field.startsWith("warmPool"))?.message ?? result.message);
      return;
    }
    setOpen(false);
    onChanged();
  };

  const removing = spec.warmPool !== undefined && replicas.trim() === "";
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger asChild>
        <button type="button" className={`${buttons.secondary} ${buttons.compact}`}>
          Warm pool<span className="visually-hidden"> of {template.name}</span>
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className={dialog.overlay} />
        <Dialog.Content className={dialog.content}>
          <Dialog.Title className={dialog.title}>Warm pool of {template.name}</Dialog.Title>
          <Dialog.Description className={dialog.text}>
            Sandboxes kept started and ready, so a developer gets one in a second. Each holds a pod (and, with a pvc workspace, a
            claim) while it waits. Fewer: the surplus goes, not-ready ones first. Empty: the pool and its waiting sandboxes are
            deleted; sandboxes already handed out stay.
          </Dialog.Description>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              void save();
            }}
            noValidate
          >
            <label htmlFor={`${ids}-replicas`} className={dialog.label}>
              Pool size (0–{MAX_WARM_POOL_REPLICAS})
            </label>
            <input
              id={`${ids}-replicas`}
              className={dialog.input}
              inputMode="numeric"
              placeholder="none"
              autoComplete="off"
              value={replicas}
              onChange={(event) => setReplicas(event.target.value)}
              aria-invalid={problem ? true : undefined}
            />
            <label htmlFor={`${ids}-strategy`} className={dialog.label}>
              When the template changes
            </label>
            <select id={`${ids}-strategy`} className={dialog.input} value={strategy} onChange={(event) => setStrategy(event.target.value as WarmPool["updateStrategy"])}>
              {WARM_POOL_UPDATE_STRATEGIES.map((value) => (
                <option key={value} value={value}>
                  {value === "Recreate" ? "Replace waiting sandboxes at once" : "Keep waiting sandboxes; new ones follow the change"}
                </option>
              ))}
            </select>
            {problem ? (
              <p role="alert" className={dialog.error}>
                {problem}
              </p>
            ) : null}
            <DialogActions>
              <button type="submit" className={removing ? buttons.danger : buttons.primary} disabled={saving}>
                {saving ? "Saving…" : removing ? "Remove pool" : "Save pool"}
              </button>
            </DialogActions>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
