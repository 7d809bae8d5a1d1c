"use client";

import * as AlertDialog from "@radix-ui/react-alert-dialog";
import { useMutation } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { ApiProblem } from "@/app/(console)/_components/api-client.ts";
import type { MaintenancePreview } from "@/lib/domain/maintenance-preview.ts";
import { startMaintenance } from "./maintenance-data.ts";
import type { MaintenanceRun } from "@/lib/domain/maintenance.ts";
import { previewSummary } from "./maintenance-words.ts";
import styles from "./maintenance.module.css";
import buttons from "@/app/components/buttons.module.css";
import dialog from "@/app/components/dialog.module.css";

/**
 * "Start maintenance…": a confirmation that repeats what the preview said, then the POST. The
 * dialog stays open on a refusal and shows the server's words there, where the person acted.
 */
export function StartMaintenanceDialog({
  preview,
  disabled,
  onStarted,
  focusAfterStart,
}: {
  preview: MaintenancePreview;
  disabled: boolean;
  onStarted: (run: MaintenanceRun) => void;
  /** The id of what takes focus once the run has started (its progress), instead of the trigger. */
  focusAfterStart: string;
}) {
  const [open, setOpen] = useState(false);
  const started = useRef(false);
  const start = useMutation({
    mutationFn: () => startMaintenance(preview.node),
    onSuccess: (run) => {
      started.current = true;
      setOpen(false);
      onStarted(run);
    },
  });
  const problem = start.error ? ApiProblem.from(start.error, "Starting maintenance failed") : null;
  return (
    <AlertDialog.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) start.reset();
      }}
    >
      <AlertDialog.Trigger asChild>
        <button type="button" className={buttons.primary} disabled={disabled}>
          Start maintenance…
        </button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={dialog.overlay} />
        <AlertDialog.Content
          className={dialog.content}
          onCloseAutoFocus={(event) => {
            // The trigger goes away with the preview; the keyboard user lands on the progress instead.
            if (!started.current) return;
            started.current = false;
            event.preventDefault();
            document.getElementById(focusAfterStart)?.focus();
          }}
        >
          <AlertDialog.Title className={dialog.title}>Start maintenance of {preview.node}?</AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className={styles.dialogBody}>
              <p>What will happen, as the preview says:</p>
              <ul className={styles.summary}>
                {previewSummary(preview).map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            </div>
          </AlertDialog.Description>
          {problem ? (
            <div className={styles.problem} role="alert">
              <strong>{problem.title}</strong>
              <p>{problem.detail}</p>
            </div>
          ) : null}
          <div className={dialog.actions}>
            <AlertDialog.Cancel asChild>
              <button type="button" className={buttons.secondary}>
                Not now
              </button>
            </AlertDialog.Cancel>
            {/* Not AlertDialog.Action: that closes at once, and a refusal must stay on screen. */}
            <button type="button" className={buttons.primary} disabled={start.isPending} onClick={() => start.mutate()}>
              {start.isPending ? "Starting…" : "Start maintenance"}
            </button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
