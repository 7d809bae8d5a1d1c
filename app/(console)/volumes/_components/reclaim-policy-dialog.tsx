"use client";

import * as Dialog from "@radix-ui/react-dialog";
import { useState } from "react";
import { api, send } from "@/app/(console)/_components/api-client.ts";
import type { Volume } from "@/lib/domain/volume.ts";
import { reclaimPolicyMeaning } from "@/lib/domain/volume-actions.ts";
import buttons from "@/app/components/buttons.module.css";
import dialog from "@/app/components/dialog.module.css";
import { DialogActions } from "@/app/(console)/_components/dialog-actions.tsx";

/**
 * Keep a claim's volume after the claim is deleted, or let it go with it: the opposite of what
 * it is now, behind a confirmation that says what that means for the data.
 */
export function ReclaimPolicyDialog({ volume, onChanged }: { volume: Volume & { persistentVolume: NonNullable<Volume["persistentVolume"]> }; onChanged: () => void }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const { name, reclaimPolicy } = volume.persistentVolume;
  const to = reclaimPolicy === "Retain" ? "Delete" : "Retain";
  const label = to === "Retain" ? "Keep volume" : "Let volume go";

  async function confirm() {
    setBusy(true);
    setProblem(null);
    const result = await send(() => api.changeReclaimPolicy({ params: { name }, body: { reclaimPolicy: to } }));
    setBusy(false);
    if (!result.ok) {
      setProblem(result.message);
      return;
    }
    setOpen(false);
    onChanged();
  }

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setProblem(null);
      }}
    >
      <Dialog.Trigger asChild>
        <button type="button" className={`${buttons.secondary} ${buttons.compact}`}>
          {label}
          <span className="visually-hidden"> of {volume.name}</span>
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className={dialog.overlay} />
        <Dialog.Content className={dialog.content}>
          <Dialog.Title className={dialog.title}>
            {to === "Retain" ? `Keep volume ${name} after its claim?` : `Delete volume ${name} with its claim?`}
          </Dialog.Title>
          <Dialog.Description className={dialog.text}>
            Claim {volume.namespace}/{volume.name} is bound to PersistentVolume <code>{name}</code>, whose reclaim policy is {reclaimPolicy}. Set to {to}: {reclaimPolicyMeaning(to)}
          </Dialog.Description>
          {problem ? (
            <p role="alert" className={dialog.error}>
              {problem}
            </p>
          ) : null}
          <DialogActions>
            <button type="button" className={to === "Retain" ? buttons.primary : buttons.danger} disabled={busy} onClick={() => void confirm()}>
              {busy ? "Setting…" : `Set to ${to}`}
            </button>
          </DialogActions>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
