"use client";

import { useState, type FormEvent } from "react";
import styles from "./sign-in.module.css";

/** Token mode: paste a Kubernetes token; Kubernetes (TokenReview) says whose it is. */
export function TokenSignIn({ returnTo }: { returnTo: string }) {
  const [token, setToken] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    const response = await fetch("/auth/token", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token }) }).catch(() => null);
    if (response?.ok) {
      window.location.assign(returnTo);
      return;
    }
    const body = (await response?.json().catch(() => null)) as { detail?: string } | null;
    setProblem(body?.detail ?? "Berth did not answer: check that it is running, then try again.");
    setBusy(false);
  }
  return (
    <form onSubmit={submit} className={styles.tokenForm}>
      <label htmlFor="token">Kubernetes token</label>
      <textarea id="token" value={token} onChange={(event) => setToken(event.target.value)} rows={4} required spellCheck={false} autoComplete="off" aria-describedby="token-help" />
      <p id="token-help" className={styles.note}>
        For example the output of <code>kubectl create token &lt;service-account&gt;</code>. Berth keeps it only in your sealed session cookie and sends it to Kubernetes as yours.
      </p>
      {problem ? (
        <p role="alert" className={styles.error}>
          {problem}
        </p>
      ) : null}
      <button type="submit" className={styles.primary} disabled={busy || token.trim() === ""}>
        {busy ? "Checking…" : "Sign in"}
      </button>
    </form>
  );
}
