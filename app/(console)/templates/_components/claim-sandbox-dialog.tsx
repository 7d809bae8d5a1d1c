"use client";

import * as Dialog from "@radix-ui/react-dialog";
import { useRouter } from "next/navigation";
import { useEffect, useId, useState } from "react";
import { api, send } from "@/app/(console)/_components/api-client.ts";
import buttons from "@/app/components/buttons.module.css";
import dialog from "@/app/components/dialog.module.css";
import type { SandboxClaimView } from "@/lib/domain/sandbox-claim.ts";
import type { TemplateView } from "@/lib/domain/template-view.ts";
import { DialogActions } from "@/app/(console)/_components/dialog-actions.tsx";

const POLL_MS = 500;

/** What the person sees while the pool's controller answers the claim. */
function progressOf(claim: SandboxClaimView): string {
  if (claim.sandbox === null) return claim.message ? `Waiting for the warm pool: ${claim.message}` : "Waiting for the warm pool to answer the claim…";
  if (claim.sandboxId === null) return `Handed sandbox ${claim.sandbox}; Berth is picking it up…`;
  return `Sandbox ${claim.sandbox} is ready: opening it…`;
}

/** A sandbox from the template: a claim on its warm pool, followed until Berth has the sandbox, then opened. */
export function ClaimSandboxDialog({ template }: { template: TemplateView }) {
  const router = useRouter();
  const ids = useId();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [claim, setClaim] = useState<SandboxClaimView | null>(null);

  useEffect(() => {
    if (!claim || claim.sandboxId !== null) return;
    const timer = setTimeout(() => {
      void api.getSandboxClaim({ params: { namespace: claim.namespace, name: claim.name } }).then(setClaim, (error: unknown) => setProblem((error as Error).message));
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [claim]);

  useEffect(() => {
    if (claim?.sandboxId) router.push(`/sandboxes/${claim.sandboxId}`);
  }, [claim, router]);

  const submit = async () => {
    setProblem(null);
    const result = await send(() => api.claimSandbox({ params: { namespace: template.namespace }, body: { name: name.trim(), template: template.name } }));
    if (!result.ok) {
      setProblem(result.fields.find((one) => one.field === "name")?.message ?? result.message);
      return;
    }
    setClaim(result.body);
  };

  const ready = template.warmPool?.ready ?? 0;
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) {
          setName("");
          setProblem(null);
          setClaim(null);
        }
      }}
    >
      <Dialog.Trigger asChild>
        <button type="button" className={`${buttons.primary} ${buttons.compact}`}>
          New sandbox<span className="visually-hidden"> from {template.name}</span>
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className={dialog.overlay} />
        <Dialog.Content className={dialog.content}>
          <Dialog.Title className={dialog.title}>New sandbox from {template.name}</Dialog.Title>
          <Dialog.Description className={dialog.text}>
            {ready > 0
              ? `${ready} sandbox${ready === 1 ? " is" : "es are"} waiting ready in the warm pool: yours starts in a second.`
              : "No sandbox is waiting ready in the warm pool: yours is started cold, which takes as long as any new sandbox."}
          </Dialog.Description>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              if (!claim) void submit();
            }}
            noValidate
          >
            <label htmlFor={`${ids}-name`} className={dialog.label}>
              Name
            </label>
            <input id={`${ids}-name`} className={dialog.input} value={name} onChange={(event) => setName(event.target.value)} autoComplete="off" spellCheck={false} disabled={claim !== null} aria-invalid={problem ? true : undefined} />
            {claim ? (
              <p role="status" className={dialog.text}>
                {progressOf(claim)}
              </p>
            ) : null}
            {problem ? (
              <p role="alert" className={dialog.error}>
                {problem}
              </p>
            ) : null}
            <DialogActions cancelLabel={claim ? "Close" : "Cancel"}>
              <button type="submit" className={buttons.primary} disabled={claim !== null || name.trim() === ""}>
                {claim ? "Claiming…" : "Create sandbox"}
              </button>
            </DialogActions>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
