"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRef, useState } from "react";
import { ApiProblem } from "@/app/(console)/_components/api-client.ts";
import { EmptyState } from "@/app/components/empty-state.tsx";
import { NodeIcon } from "@/app/components/icons.tsx";
import { PhaseBadge } from "@/app/components/phase-badge.tsx";
import type { SimulatorActionResult, SimulatorNode, SimulatorNodeAction, SimulatorPod, SimulatorPodAction, SimulatorState } from "@/lib/domain/simulator.ts";
import { ActionEntryView, type ActionEntry } from "./action-entry.tsx";
import { fetchSimulatorState, nodeAction, podAction, SIMULATOR_KEY } from "./simulator-data.ts";
import styles from "./simulator.module.css";
import buttons from "@/app/components/buttons.module.css";
import { serverRendered } from "@/app/(console)/_components/server-rendered.ts";
import { ToneBadge } from "@/app/components/tone-badge.tsx";

/**
 * Node loss and restore change no Berth record until the control plane notices, so the event
 * stream alone would miss them: the board also reads the simulator's state this often.
 */
const POLL_MS = 1_500;

const NODE_VERBS: Record<SimulatorNodeAction, { label: string; doing: (node: string) => string }> = {
  cordon: { label: "Cordon", doing: (node) => `Cordoning ${node}` },
  uncordon: { label: "Uncordon", doing: (node) => `Uncordoning ${node}` },
  drain: { label: "Drain", doing: (node) => `Draining ${node} (an eviction a budget refuses is retried until the timeout)` },
  lose: { label: "Lose node", doing: (node) => `Stopping the kubelet of ${node}` },
  restore: { label: "Restore node", doing: (node) => `Restarting the kubelet of ${node}` },
};

const POD_VERBS: Record<SimulatorPodAction, { label: string; doing: (pod: string) => string }> = {
  delete: { label: "Delete pod", doing: (pod) => `Deleting pod ${pod}` },
  "kubelet-evict": { label: "Kubelet-evict", doing: (pod) => `Having the kubelet evict ${pod}` },
  preempt: { label: "Preempt", doing: (pod) => `Having the scheduler preempt ${pod}` },
};

// Links to sandbox pages do not prefetch: one request per pod on screen, for pages opened on purpose.

type Run = (key: string, entry: Omit<ActionEntry, "id" | "state" | "result" | "problem">, call: () => Promise<SimulatorActionResult>) => void;

const sandboxesOf = (pods: SimulatorPod[]) => Object.fromEntries(pods.map((pod) => [`${pod.namespace}/${pod.pod}`, { id: pod.sandbox.id, name: pod.sandbox.name }]));

function PodRow({ node, pod, pending, run }: { node: string; pod: SimulatorPod; pending: ReadonlySet<string>; run: Run }) {
  const target = `${pod.namespace}/${pod.pod}`;
  return (
    <li className={styles.pod}>
      <span className={styles.podName}>
        <Link href={`/sandboxes/${pod.sandbox.id}`} prefetch={false}>{pod.sandbox.name}</Link>
        <span className={styles.sub}>pod {target}</span>
      </span>
      <PhaseBadge phase={pod.sandbox.phase} />
      {pod.sandbox.reason ? <span className={styles.sub}>{pod.sandbox.reason}</span> : null}
      <span className={styles.actions}>
        {(Object.keys(POD_VERBS) as SimulatorPodAction[]).map((action) => {
          const key = `pod:${target}:${action}`;
          return (
            <button
              key={action}
              type="button"
              className={`${buttons.secondary} ${buttons.compact}`}
              aria-label={`${POD_VERBS[action].label} ${target}`}
              disabled={pending.has(key)}
              onClick={() => run(key, { node, doing: POD_VERBS[action].doing(target), sandboxes: sandboxesOf([pod]) }, () => podAction(pod.namespace, pod.pod, action))}
            >
              {POD_VERBS[action].label}
            </button>
          );
        })}
      </span>
    </li>
  );
}

function NodeCard({ node, pending, run, latest }: { node: SimulatorNode; pending: ReadonlySet<string>; run: Run; latest: ActionEntry | undefined }) {
  const actions: SimulatorNodeAction[] = [node.cordoned ? "uncordon" : "cordon", "drain", node.up ? "lose" : "restore"];
  const headingId = `sim-node-${node.name}`;
  return (
    <section className={styles.card} aria-labelledby={headingId}>
      <header className={styles.cardHeader}>
        <h2 id={headingId} className={styles.name}>
          {node.name}
        </h2>
        <ToneBadge tone={node.ready ? "ok" : "danger"}>{node.ready ? "Ready" : "Not Ready"}</ToneBadge>
        {node.cordoned ? (
          <ToneBadge tone="progress">Cordoned</ToneBadge>
        ) : null}
        {!node.up ? (
          <ToneBadge tone="danger">Kubelet stopped</ToneBadge>
        ) : null}
        <span className={styles.actions}>
          {actions.map((action) => {
            const key = `node:${node.name}:${action}`;
            // Cordoning touches no pod; the other node actions disrupt every sandbox on it.
            const sandboxes = action === "cordon" || action === "uncordon" ? {} : sandboxesOf(node.pods);
            return (
              <button
                key={action}
                type="button"
                className={`${buttons.secondary} ${buttons.compact}`}
                aria-label={`${NODE_VERBS[action].label} ${node.name}`}
                disabled={pending.has(key)}
                onClick={() => run(key, { node: node.name, doing: NODE_VERBS[action].doing(node.name), sandboxes }, () => nodeAction(node.name, action))}
              >
                {NODE_VERBS[action].label}
              </button>
            );
          })}
        </span>
      </header>
      {!node.up && node.ready ? <p className={styles.muted}>The kubelet has stopped; the control plane marks the node Not Ready once its 40 s grace period (simulated time) has passed.</p> : null}
      {node.pods.length > 0 ? (
        <ul className={styles.pods} aria-label={`Sandbox pods on ${node.name}`}>
          {node.pods.map((pod) => (
            <PodRow key={`${pod.namespace}/${pod.pod}`} node={node.name} pod={pod} pending={pending} run={run} />
          ))}
        </ul>
      ) : (
        <p className={styles.muted}>No sandbox pod runs here.</p>
      )}
      {latest ? (
        <div className={styles.latest} role="status" aria-label={`Last action on ${node.name}`}>
          <ActionEntryView entry={latest} />
        </div>
      ) : null}
    </section>
  );
}

/** The embedded cluster's nodes and sandbox pods, live, with the disruptions one can cause to each, and what they did. */
export function SimulatorBoard({ initialState, initialAt }: { initialState: SimulatorState | null; initialAt: number }) {
  const queryClient = useQueryClient();
  const { data, error } = useQuery({
    queryKey: SIMULATOR_KEY,
    queryFn: ({ signal }) => fetchSimulatorState(signal),
    ...(initialState ? serverRendered(initialState) : {}),
    refetchInterval: POLL_MS,
  });
  const [entries, setEntries] = useState<ActionEntry[]>([]);
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set());
  const nextId = useRef(1);

  const run: Run = (key, entry, call) => {
    const id = nextId.current++;
    const update = (change: Partial<ActionEntry>) => setEntries((all) => all.map((one) => (one.id === id ? { ...one, ...change } : one)));
    setEntries((all) => [{ ...entry, id, state: "running", result: null, problem: null }, ...all]);
    setPending((keys) => new Set(keys).add(key));
    call()
      .then((result) => update({ state: "done", result }))
      .catch((caught: unknown) => update({ state: "failed", problem: ApiProblem.from(caught, "The action failed") }))
      .finally(() => {
        setPending((keys) => {
          const next = new Set(keys);
          next.delete(key);
          return next;
        });
        void queryClient.invalidateQueries({ queryKey: SIMULATOR_KEY });
      });
  };

  if (!data) {
    return error ? (
      <p className={styles.warning} role="alert">
        {error.message}
      </p>
    ) : (
      <p className={styles.muted}>Reading the simulated cluster…</p>
    );
  }
  if (data.nodes.length === 0) {
    return (
      <EmptyState icon={<NodeIcon />} title="The simulated cluster has no nodes">
        <p>Set BERTH_SIM_WORKERS and start a console on a fresh data directory.</p>
      </EmptyState>
    );
  }
  return (
    <div className={styles.board}>
      <p className={styles.muted}>
        Simulated clock: <time dateTime={data.clock}>{data.clock.slice(0, 19).replace("T", " ")} UTC</time>. Open a sandbox to watch its timeline while you disrupt it.
      </p>
      {error ? (
        <p className={styles.warning} role="alert">
          {error.message} — showing what was last read.
        </p>
      ) : null}
      <div className={styles.nodes}>
        {data.nodes.map((node) => (
          <NodeCard key={node.name} node={node} pending={pending} run={run} latest={entries.find((entry) => entry.node === node.name)} />
        ))}
      </div>
      {data.unscheduled.length > 0 ? (
        <section className={styles.card} aria-labelledby="sim-unscheduled">
          <h2 id="sim-unscheduled" className={styles.name}>
            On no node
          </h2>
          <p className={styles.muted}>Their pod is waiting to be scheduled (or is being replaced): the sandbox page says what it waits for.</p>
          <ul className={styles.pods} aria-label="Sandboxes on no node">
            {data.unscheduled.map((pod) => (
              <li key={`${pod.namespace}/${pod.pod}`} className={styles.pod}>
                <span className={styles.podName}>
                  <Link href={`/sandboxes/${pod.sandbox.id}`} prefetch={false}>{pod.sandbox.name}</Link>
                </span>
                <PhaseBadge phase={pod.sandbox.phase} />
                {pod.sandbox.reason ? <span className={styles.sub}>{pod.sandbox.reason}</span> : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-labelledby="sim-activity" className={styles.activity}>
        <h2 id="sim-activity" className={styles.name}>
          Activity
        </h2>
        {entries.length === 0 ? (
          <p className={styles.muted}>Nothing done yet. Every action you take is listed here, newest first, with what it did.</p>
        ) : (
          <ol className={styles.log} role="log" aria-label="What the simulator did">
            {entries.map((entry) => (
              <li key={entry.id}>
                <span className={styles.sub}>{entry.doing}</span>
                <ActionEntryView entry={entry} />
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}
