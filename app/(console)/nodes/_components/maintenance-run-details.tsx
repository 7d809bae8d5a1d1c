"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useRef } from "react";
import { ApiProblem } from "@/app/(console)/_components/api-client.ts";
import tableStyles from "@/app/components/data-table.module.css";
import { formatTimestamp } from "@/app/components/format.ts";
import { cancelMaintenance, fetchRun, runKey, runsKey } from "./maintenance-data.ts";
import type { MaintenanceRun } from "@/lib/domain/maintenance.ts";
import { nextForRun, nextForStep, resumedNote, RUN_TONES, STEP_LABELS, STEP_TONES } from "./maintenance-words.ts";
import styles from "./maintenance.module.css";
import buttons from "@/app/components/buttons.module.css";
import { ToneBadge } from "@/app/components/tone-badge.tsx";

/** While a run is running its record is read this often; the event stream also refreshes it at each step. */
const POLL_MS = 1_000;

// Links to sandbox pages do not prefetch: one request per sandbox in the run, for pages opened on purpose.

const FINAL_STEPS = new Set(["Replaced", "WaitingForNode", "WaitingForOperator", "Left", "Failed"]);

/** One maintenance run: each sandbox's step, live while it runs; Cancel; the outcome and what to do next. */
export function MaintenanceRunDetails({ node, initial, headingId }: { node: string; initial: MaintenanceRun; headingId: string }) {
  const queryClient = useQueryClient();
  const { data: run } = useQuery({
    queryKey: runKey(node, initial.id),
    queryFn: ({ signal }) => fetchRun(initial.id, signal),
    initialData: initial,
    refetchInterval: (query) => (query.state.data?.state === "Running" ? POLL_MS : false),
  });
  const running = run.state === "Running";

  // The moment it ends, the history (its row) and the nodes (where the sandboxes went) change too.
  const wasRunning = useRef(running);
  useEffect(() => {
    if (wasRunning.current && !running) {
      void queryClient.invalidateQueries({ queryKey: runsKey(node), exact: true });
      void queryClient.invalidateQueries({ queryKey: ["nodes"], exact: true });
    }
    wasRunning.current = running;
  }, [running, node, queryClient]);

  const cancel = useMutation({
    mutationFn: () => cancelMaintenance(run.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: runKey(node, run.id) }),
  });
  const cancelProblem = cancel.error ? ApiProblem.from(cancel.error, "Cancelling failed") : null;

  const done = run.progress.sandboxes.filter((entry) => FINAL_STEPS.has(entry.step)).length;
  const caption = `Sandboxes in the maintenance run of ${node}`;
  return (
    <section className={styles.run} aria-labelledby={headingId}>
      <header className={styles.runHeader}>
        <h3 id={headingId} tabIndex={-1} className={styles.runTitle}>
          Maintenance run <span className={styles.sub}>started {formatTimestamp(new Date(run.startedAt))} by {run.actor}</span>
        </h3>
        <p role="status" className={styles.runState}>
          <ToneBadge tone={RUN_TONES[run.state]}>{run.state}</ToneBadge>
          {running ? <span>{`${done} of ${run.progress.sandboxes.length} sandboxes done`}</span> : null}
          {run.attempts > 1 ? <span>{resumedNote(run.attempts, run.runBy)}</span> : null}
        </p>
        {running ? (
          <button type="button" className={`${buttons.secondary} ${buttons.compact}`} disabled={cancel.isPending || cancel.isSuccess || run.cancelRequested} onClick={() => cancel.mutate()}>
            {cancel.isSuccess || run.cancelRequested ? "Cancelling after this step…" : "Cancel maintenance"}
          </button>
        ) : null}
      </header>
      {cancelProblem ? (
        <div className={styles.problem} role="alert">
          <strong>{cancelProblem.title}</strong>
          <p>{cancelProblem.detail}</p>
        </div>
      ) : null}
      {!running && run.message ? (
        <div className={styles.outcome} data-tone={RUN_TONES[run.state]}>
          <p>{run.message}</p>
          <p>
            <strong>Next:</strong> {nextForRun(run.state, node)}
          </p>
        </div>
      ) : (
        <p className={styles.muted}>{nextForRun(run.state, node)}</p>
      )}
      {run.progress.sandboxes.length > 0 ? (
        <table className={tableStyles.table} aria-label={caption}>
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              <th scope="col">Sandbox</th>
              <th scope="col">Step</th>
              <th scope="col">What happens</th>
            </tr>
          </thead>
          <tbody>
            {run.progress.sandboxes.map((entry) => {
              const next = nextForStep(entry, node);
              return (
                <tr key={entry.sandboxId}>
                  <th scope="row" className={tableStyles.primary}>
                    <Link href={`/sandboxes/${entry.sandboxId}`} prefetch={false}>{entry.name}</Link>
                    <span className={styles.sub}>{entry.namespace}</span>
                  </th>
                  <td>
                    <ToneBadge tone={STEP_TONES[entry.step]}>{STEP_LABELS[entry.step]}</ToneBadge>
                  </td>
                  <td className={styles.why}>
                    {entry.message}
                    {next ? (
                      <span className={styles.next}>
                        <strong>Next:</strong> {next}
                      </span>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : null}
      {run.progress.pods.length > 0 ? (
        <table className={tableStyles.table} aria-label={`Other pods in the maintenance run of ${node}`}>
          <thead>
            <tr>
              <th scope="col">Pod</th>
              <th scope="col">Step</th>
              <th scope="col">Why</th>
            </tr>
          </thead>
          <tbody>
            {run.progress.pods.map((pod) => (
              <tr key={`${pod.namespace}/${pod.pod}`}>
                <th scope="row" className={tableStyles.primary}>
                  {pod.pod}
                  <span className={styles.sub}>{pod.namespace}</span>
                </th>
                <td>{pod.step}</td>
                <td className={styles.why}>{pod.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
