"use client";

import * as AlertDialog from "@radix-ui/react-alert-dialog";
import { useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { api, send } from "@/app/(console)/_components/api-client.ts";
import type { Volume } from "@/lib/domain/volume.ts";
import buttons from "@/app/components/buttons.module.css";
import dialog from "@/app/components/dialog.module.css";

/** What deleting the claim takes away, in words, before anyone types its name. */
function whatIsLost(volume: Volume): string {
  const owner = volume.sandbox ? `the workspace of the deleted sandbox ${volume.sandbox.name}` : "its files";
  const size = volume.capacity ?? volume.requested;
  return `Deleting ${volume.name} deletes ${owner}${size ? ` (${size})` : ""} for good: no sandbox can be started from it again, and with the usual reclaim policy Delete the volume behind it goes too. This cannot be undone.`;
}

/** Delete a detached claim, confirmed by typing its name (AlertDialog: focus stays inside until it closes). */
export function DeleteVolumeDialog({ volume, onChanged }: { volume: Volume; onChanged: () => void }) {
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
    const result = await send(() => api.deleteVolume({ params: { namespace: volume.namespace, name: volume.name } }));
    setDeleting(false);
    if (!result.ok) {
      setProblem(result.message);
      return;
    }
    // Gone for the user at once; the list catches up with the cluster behind it.
    queryClient.setQueryData<Volume[]>(["volumes"], (old) => old?.filter((one) => !(one.namespace === volume.namespace && one.name === volume.name)));
    onOpenChange(false);
    onChanged();
  };

  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Trigger asChild>
        <button type="button" className={`${buttons.dangerOutline} ${buttons.compact}`}>
          Delete<span className="visually-hidden"> {volume.name}</span>
        </button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={dialog.overlay} />
        <AlertDialog.Content className={dialog.content}>
          <AlertDialog.Title className={dialog.title}>Delete claim {volume.name}?</AlertDialog.Title>
          <AlertDialog.Description className={dialog.text}>{whatIsLost(volume)}</AlertDialog.Description>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              if (typed === volume.name) void confirm();
            }}
          >
            <label htmlFor={`${ids}-confirm`} className={dialog.label}>
              Type <code>{volume.name}</code> to confirm
            </label>
            <input
              id={`${ids}-confirm`}
              className={dialog.input}
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
              autoComplete="off"
              spellCheck={false}
            />
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
              <button type="submit" className={buttons.danger} disabled={typed !== volume.name || deleting}>
                {deleting ? "Deleting…" : "Delete claim"}
              </button>
            </div>
          </form>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
