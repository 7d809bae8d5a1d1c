"use client";

import * as AlertDialog from "@radix-ui/react-alert-dialog";
import { useId, useState } from "react";
import type { SendResult } from "@/app/(console)/_components/api-client.ts";
import buttons from "@/app/components/buttons.module.css";
import dialog from "@/app/components/dialog.module.css";

// A delete that cannot be undone, confirmed by typing the name of what goes (AlertDialog: focus
// stays inside until it closes); the server's refusal is shown in the dialog.

export interface TypedDeleteDialogProps {
  /** What is typed to confirm, and named on the trigger for screen readers. */
  name: string;
  title: string;
  /** What is lost, in words, before anyone types. */
  whatIsLost: string;
  /** The confirm button: "Delete claim", "Delete template". */
  confirmLabel: string;
  remove: () => Promise<SendResult>;
  onDeleted: () => void;
}

/**
 * The form of a confirmation by typing: the phrase to type, the field, the server's refusal, and
 * Cancel beside a confirm button enabled only once the phrase is typed exactly.
 */
export function TypedConfirmation({ phrase, typed, onType, onConfirm, confirmLabel, busy, problem }: { phrase: string; typed: string; onType: (typed: string) => void; onConfirm: () => void; confirmLabel: string; busy: boolean; problem: string | null }) {
  const ids = useId();
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (typed === phrase && !busy) onConfirm();
      }}
    >
      <label htmlFor={`${ids}-confirm`} className={dialog.label}>
        Type <code>{phrase}</code> to confirm
      </label>
      <input id={`${ids}-confirm`} className={dialog.input} value={typed} onChange={(event) => onType(event.target.value)} autoComplete="off" spellCheck={false} />
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
        <button type="submit" className={buttons.danger} disabled={typed !== phrase || busy}>
          {confirmLabel}
        </button>
      </div>
    </form>
  );
}

export function TypedDeleteDialog({ name, title, whatIsLost, confirmLabel, remove, onDeleted }: TypedDeleteDialogProps) {
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
    const result = await remove();
    setDeleting(false);
    if (!result.ok) {
      setProblem(result.message);
      return;
    }
    onOpenChange(false);
    onDeleted();
  };

  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Trigger asChild>
        <button type="button" className={`${buttons.dangerOutline} ${buttons.compact}`}>
          Delete<span className="visually-hidden"> {name}</span>
        </button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={dialog.overlay} />
        <AlertDialog.Content className={dialog.content}>
          <AlertDialog.Title className={dialog.title}>{title}</AlertDialog.Title>
          <AlertDialog.Description className={dialog.text}>{whatIsLost}</AlertDialog.Description>
          <TypedConfirmation phrase={name} typed={typed} onType={setTyped} onConfirm={() => void confirm()} confirmLabel={deleting ? "Deleting…" : confirmLabel} busy={deleting} problem={problem} />
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
