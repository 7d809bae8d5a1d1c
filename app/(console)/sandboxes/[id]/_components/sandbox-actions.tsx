"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import type { SandboxRecord } from "@/lib/domain/sandbox-record.ts";
import { ACTION_CAPABILITY, availability, type SandboxAction } from "./action-rules.ts";
import { permissionIn, useViewer } from "@/app/(console)/_components/viewer-context.tsx";
import { DeleteDialog } from "./delete-dialog.tsx";
import { ApiProblem } from "@/app/(console)/_components/api-client.ts";
import { sandboxCommands, type LifecycleAction } from "./sandbox-api.ts";
import type { SandboxStorage } from "./sandbox-claims.ts";
import styles from "./sandbox-actions.module.css";
import buttons from "@/app/components/buttons.module.css";

type QuickAction = Exclude<SandboxAction, "delete">;

const LABELS: Record<QuickAction, { idle: string; busy: string; done: string }> = {
  stop: { idle: "Stop", busy: "Stopping…", done: "Stop requested: the pod is removed, the claims are kept" },
  start: { idle: "Start", busy: "Starting…", done: "Start requested: a pod is on its way" },
  recover: { idle: "Recover", busy: "Recovering…", done: "Recovery requested: the failed pod was deleted for the controller to replace" },
  checkpoint: { idle: "Checkpoint", busy: "Checkpointing…", done: "" },
};

const ORDER: QuickAction[] = ["stop", "start", "recover", "checkpoint"];

/**
 * The lifecycle actions the phase allows. One runs at a time; while it does, its button says so;
 * what the server answered (its problem+json title and detail on failure) stays in view until
 * the next action.
 */
export function SandboxActions({ record, storage }: { record: SandboxRecord; storage: SandboxStorage }) {
  const queryClient = useQueryClient();
  const whyId = useId();
  const you = useViewer();
  const offered = (which: SandboxAction) => availability(which, record, permissionIn(you, ACTION_CAPABILITY[which], record.namespace));
  const [outcome, setOutcome] = useState<{ kind: "done" | "failed"; text: string; detail?: string } | null>(null);
  const action = useMutation({
    mutationFn: async (which: QuickAction): Promise<string> => {
      if (which === "checkpoint") {
        const checkpoint = await sandboxCommands.checkpoint(record.id);
        return `Checkpoint ${checkpoint.result}${checkpoint.durationMs === null ? "" : ` in ${checkpoint.durationMs} ms`}${checkpoint.markerWritten ? "; the state marker is written" : ""}`;
      }
      await sandboxCommands.lifecycle(record.id, which as LifecycleAction);
      return LABELS[which].done;
    },
    onMutate: () => setOutcome(null),
    onSuccess: (text) => setOutcome({ kind: "done", text }),
    onError: (error, which) => {
      const problem = error instanceof ApiProblem ? error : null;
      setOutcome({ kind: "failed", text: `${LABELS[which].idle} failed: ${problem?.title ?? error.message}`, detail: problem?.detail });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ["sandbox", record.id] }),
  });

  return (
    <div className={styles.bar}>
      <div className={styles.buttons} role="group" aria-label="Actions">
        {ORDER.map((which) => {
          const allowed = offered(which);
          const busy = action.isPending && action.variables === which;
          return (
            <button
              key={which}
              type="button"
              className={buttons.secondary}
              disabled={!allowed.enabled || action.isPending}
              aria-busy={busy}
              title={allowed.enabled ? undefined : allowed.why}
              aria-describedby={allowed.enabled ? undefined : `${whyId}-${which}`}
              onClick={() => action.mutate(which)}
            >
              {busy ? LABELS[which].busy : LABELS[which].idle}
            </button>
          );
        })}
        <DeleteDialog record={record} claims={storage.claims} allowed={offered("delete")} />
      </div>
      {/* Said on the page, not only in a tooltip, so keyboard and screen-reader users learn it too. */}
      <ul className={styles.why} aria-label="Why some actions are not offered now">
        {ORDER.map((which) => {
          const allowed = offered(which);
          return allowed.enabled ? null : (
            <li key={which} id={`${whyId}-${which}`}>
              {allowed.why}
            </li>
          );
        })}
      </ul>
      <div aria-live="polite">
        {action.isPending ? <p className={styles.progress}>{LABELS[action.variables].busy}</p> : null}
        {outcome?.kind === "done" ? <p className={styles.done}>{outcome.text}</p> : null}
      </div>
      {outcome?.kind === "failed" ? (
        <div className={styles.failed} role="alert">
          <p className={styles.failedTitle}>{outcome.text}</p>
          {outcome.detail ? <p>{outcome.detail}</p> : null}
        </div>
      ) : null}
    </div>
  );
}
