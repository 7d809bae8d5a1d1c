"use client";

import * as AlertDialog from "@radix-ui/react-alert-dialog";
import { useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { api, send } from "@/app/(console)/_components/api-client.ts";
import buttons from "@/app/components/buttons.module.css";
import dialog from "@/app/components/dialog.module.css";
import type { TemplateView } from "@/lib/domain/template-view.ts";

function whatIsLost(template: TemplateView): string {
  const pool = template.warmPool ? ` Its warm pool goes with it, and the ${template.warmPool.members} sandboxes waiting in it.` : "";
  return `No new sandbox can be made from ${template.name}.${pool} Sandboxes already made from it stay, with their workspaces.`;
}

/** Delete a template (and its pool), confirmed by typing its name. */
export function DeleteTemplateDialog({ template, onChanged }: { template: TemplateView; onChanged: () => void }) {
  const queryClient = useQueryClient();
  const ids = useId();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setTyped("");
      setProblem(null);
    }
  };

  const confirm = async () => {
    setDeleting(true);
    const result = await send(() => api.deleteTemplate({ params: { namespace: template.namespace, name: template.name } }));
    setDeleting(false);
    if (!result.ok) {
      setProblem(result.message);
      return;
    }
    queryClient.setQueryData<TemplateView[]>(["templates"], (old) => old?.filter((one) => !(one.namespace === template.namespace && one.name === template.name)));
    onOpenChange(false);
    onChanged();
  };

  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Trigger asChild>
        <button type="button" className={`${buttons.dangerOutline} ${buttons.compact}`}>
          Delete<span className="visually-hidden"> {template.name}</span>
        </button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={dialog.overlay} />
        <AlertDialog.Content className={dialog.content}>
          <AlertDialog.Title className={dialog.title}>Delete template {template.name}?</AlertDialog.Title>
          <AlertDialog.Description className={dialog.text}>{whatIsLost(template)}</AlertDialog.Description>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              if (typed === template.name) void confirm();
            }}
          >
            <label htmlFor={`${ids}-confirm`} className={dialog.label}>
              Type <code>{template.name}</code> to confirm
            </label>
            <input id={`${ids}-confirm`} className={dialog.input} value={typed} onChange={(event) => setTyped(event.target.value)} autoComplete="off" spellCheck={false} />
            {problem ? (
              <p role="alert" className={dialog.error}>
                {problem}
              </p>
            ) : null}
            <div className={dialog.actions}>
              <AlertDialog.Cancel asChild>
                <button type="button" className={buttons.secondary}>
                  Cancel
                </button>
              </AlertDialog.Cancel>
              <button type="submit" className={buttons.danger} disabled={typed !== template.name || deleting}>
                {deleting ? "Deleting…" : "Delete template"}
              </button>
            </div>
          </form>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
