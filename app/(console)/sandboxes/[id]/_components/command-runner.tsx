"use client";

import { useMutation } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import type { ExecResultBody } from "@/lib/domain/exec-request.ts";
import { ApiProblem } from "@/app/(console)/_components/api-client.ts";
import { sandboxCommands } from "./sandbox-api.ts";
import styles from "./command-runner.module.css";
import { DisabledUntilHydrated } from "@/app/(console)/_components/disabled-until-hydrated.tsx";
import buttons from "@/app/components/buttons.module.css";
import { useMayIn } from "@/app/(console)/_components/viewer-context.tsx";

const DEFAULT_TIMEOUT_SECONDS = 30;

type Run = { key: number; line: string } & ({ state: "running" } | { state: "done"; result: ExecResultBody } | { state: "failed"; title: string; detail: string });

function RunEntry({ run }: { run: Run }) {
  return (
    <li className={styles.run} aria-label={`$ ${run.line}`}>
      <p className={styles.line}>
        <span aria-hidden="true">$ </span>
        <code>{run.line}</code>
        {run.state === "running" ? <span className={styles.muted}> running…</span> : null}
        {run.state === "done" ? <span className={run.result.exitCode === 0 ? styles.ok : styles.bad}> exit code {run.result.exitCode}</span> : null}
      </p>
      {run.state === "done" ? (
        <>
          {run.result.stdout ? (
            <pre className={styles.output} aria-label="Standard output">
              {run.result.stdout}
            </pre>
          ) : null}
          {run.result.stderr ? (
            <pre className={`${styles.output} ${styles.stderr}`} aria-label="Standard error">
              {run.result.stderr}
            </pre>
          ) : null}
          {!run.result.stdout && !run.result.stderr ? <p className={styles.muted}>No output.</p> : null}
        </>
      ) : null}
      {run.state === "failed" ? (
        <div className={styles.failed} role="alert">
          <p className={styles.failedTitle}>{run.title}</p>
          <p>{run.detail}</p>
        </div>
      ) : null}
    </li>
  );
}

/**
 * Runs a shell line in the agent container (`sh -c <line>` through the exec API) and keeps what
 * this visit ran, newest first. A refusal (not ready, timed out) is shown as the server put it,
 * and the line stays in the field to run again.
 */
export function CommandRunner({ sandboxId, namespace, ready, mountPath }: { sandboxId: string; namespace: string; ready: boolean; mountPath: string }) {
  const permission = useMayIn("execInPods", namespace);
  const [line, setLine] = useState("");
  const [timeoutSeconds, setTimeoutSeconds] = useState(DEFAULT_TIMEOUT_SECONDS);
  const [runs, setRuns] = useState<Run[]>([]);
  const hintId = useId();
  const update = (key: number, next: Run) => setRuns((all) => all.map((run) => (run.key === key ? next : run)));
  const exec = useMutation({
    mutationFn: ({ line }: { key: number; line: string }) => sandboxCommands.exec(sandboxId, line, timeoutSeconds),
    onSuccess: (result, { key, line }) => {
      update(key, { key, line, state: "done", result });
      setLine((current) => (current === line ? "" : current));
    },
    onError: (error, { key, line }) => {
      const problem = ApiProblem.from(error, "The command could not be run");
      update(key, { key, line, state: "failed", title: problem.title, detail: problem.detail });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = line.trim();
    if (!trimmed || exec.isPending) return;
    const key = Date.now();
    setRuns((all) => [{ key, line: trimmed, state: "running" }, ...all]);
    exec.mutate({ key, line: trimmed });
  };

  if (!permission.allowed) return <p className={styles.muted}>Commands run as you in the agent container: {permission.reason}</p>;
  return (
    <div className={styles.runner}>
      <form className={styles.form} onSubmit={submit}>
        <DisabledUntilHydrated>
          <label className={styles.field}>
            <span>Command</span>
            <input
              className={styles.input}
              value={line}
              onChange={(event) => setLine(event.target.value)}
              placeholder={`ls -la ${mountPath}`}
              autoComplete="off"
              spellCheck={false}
              aria-describedby={hintId}
            />
          </label>
          <label className={styles.timeout}>
            <span>Timeout (s)</span>
            <input className={styles.input} type="number" min={1} max={600} value={timeoutSeconds} onChange={(event) => setTimeoutSeconds(Math.min(600, Math.max(1, Number(event.target.value) || DEFAULT_TIMEOUT_SECONDS)))} />
          </label>
          <button type="submit" className={buttons.primary} disabled={exec.isPending || line.trim() === ""} aria-busy={exec.isPending}>
            {exec.isPending ? "Running…" : "Run"}
          </button>
        </DisabledUntilHydrated>
      </form>
      <p id={hintId} className={styles.muted}>
        Runs as <code>sh -c</code> in the agent container. {ready ? `The workspace is at ${mountPath}.` : "The sandbox is not Ready: commands are refused until it is."}
      </p>
      {runs.length > 0 ? (
        <ol className={styles.history} aria-label="Commands run this visit, newest first">
          {runs.map((run) => (
            <RunEntry key={run.key} run={run} />
          ))}
        </ol>
      ) : null}
    </div>
  );
}
