"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { EmptyState } from "@/app/components/empty-state.tsx";
import { NodeIcon } from "@/app/components/icons.tsx";
import { PhaseBadge } from "@/app/components/phase-badge.tsx";
import tableStyles from "@/app/components/data-table.module.css";
import type { DrainOutcome } from "@/lib/domain/maintenance-preview.ts";
import type { NodeView } from "@/lib/domain/node-view.ts";
import { runsKey } from "./maintenance-data.ts";
import type { MaintenanceRun } from "@/lib/domain/maintenance.ts";
import { NodeMaintenance, runHeadingId, useNodeRuns } from "./node-maintenance.tsx";
import { fetchNodes, fetchPreview } from "./node-data.ts";
import { StartMaintenanceDialog } from "./start-maintenance-dialog.tsx";
import styles from "./live-node-list.module.css";
import buttons from "@/app/components/buttons.module.css";
import { useMayOnCluster } from "@/app/(console)/_components/viewer-context.tsx";
import { useServerRenderedQuery } from "@/app/(console)/_components/server-rendered.ts";

const OUTCOME_LABELS: Record<DrainOutcome, string> = {
  moves: "Moves elsewhere",
  waitsForNode: "Waits for this node",
  losesWorkspace: "Loses its ephemeral workspace",
  cannotMove: "Cannot move",
  evicted: "Evicted (not a sandbox)",
  ignored: "Left alone",
  refused: "Refused by drain",
};

/**
 * What draining the node would do, fetched when asked for (it lists every pod on the node), and
 * the action that does it: maintenance, confirmed against this very preview.
 */
function DrainPreview({ node, running, onStarted }: { node: string; running: boolean; onStarted: (run: MaintenanceRun) => void }) {
  const { data, error, isPending } = useQuery({ queryKey: ["node-preview", node], queryFn: ({ signal }) => fetchPreview(node, signal) });
  if (isPending) return <p className={styles.muted}>Working out what a drain of {node} would do…</p>;
  if (error) return <p className={styles.warning} role="alert">{(error as Error).message}</p>;
  const start = (
    <div className={styles.startRow}>
      <StartMaintenanceDialog preview={data} disabled={running} onStarted={onStarted} focusAfterStart={runHeadingId(node)} />
      {running ? <span className={styles.muted}>A maintenance run of {node} is running: see its progress below.</span> : null}
    </div>
  );
  if (data.pods.length === 0) {
    return (
      <>
        <p className={styles.muted}>Nothing runs on {node}: a drain would only cordon it.</p>
        {start}
      </>
    );
  }
  const caption = `What draining ${node} would do`;
  return (
    <>
    <table className={tableStyles.table} aria-label={caption}>
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Pod</th>
          <th scope="col">Outcome</th>
          <th scope="col">Why</th>
        </tr>
      </thead>
      <tbody>
        {data.pods.map((pod) => (
          <tr key={`${pod.namespace}/${pod.pod}`}>
            <th scope="row" className={tableStyles.primary}>
              {pod.pod}
              <span className={styles.sub}>{pod.sandbox ? "sandbox" : pod.namespace}</span>
            </th>
            <td>
              {OUTCOME_LABELS[pod.outcome]}
              {pod.checkpointedFirst ? <span className={styles.sub}>checkpointed first</span> : null}
            </td>
            <td className={styles.why}>{pod.message}</td>
          </tr>
        ))}
      </tbody>
    </table>
    {start}
    </>
  );
}

function NodeCard({ node }: { node: NodeView }) {
  const [previewing, setPreviewing] = useState(false);
  const [shownRun, setShownRun] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const mayRun = useMayOnCluster("runMaintenance");
  const mayRead = useMayOnCluster("readMaintenance");
  const runs = useNodeRuns(node.name, mayRead.allowed);
  const running = runs.data?.some((run) => run.state === "Running") ?? false;
  const onStarted = (run: MaintenanceRun) => {
    // Shown at once, without waiting for the history to be read again.
    queryClient.setQueryData<MaintenanceRun[]>(runsKey(node.name), (old) => [run, ...(old ?? []).filter((one) => one.id !== run.id)]);
    setShownRun(run.id);
    // The preview is about to be out of date: close it, and read it afresh when it is opened again.
    setPreviewing(false);
    void queryClient.invalidateQueries({ queryKey: ["node-preview", node.name] });
  };
  const state = !node.ready ? "Not Ready" : node.cordoned ? "Cordoned" : "Ready";
  return (
    <section className={styles.card} aria-labelledby={`node-${node.name}`}>
      <header className={styles.cardHeader}>
        <h2 id={`node-${node.name}`} className={styles.name}>
          {node.name}
        </h2>
        <span className={styles.state} data-state={state}>
          {state}
        </span>
        <span className={styles.muted}>
          {node.sandboxes.length} {node.sandboxes.length === 1 ? "sandbox" : "sandboxes"}
        </span>
        {mayRun.allowed ? (
          <button type="button" className={`${buttons.secondary} ${buttons.compact}`} aria-expanded={previewing} onClick={() => setPreviewing((open) => !open)}>
            {previewing ? "Hide drain preview" : "Preview a drain"}
          </button>
        ) : (
          <span className={buttons.reason}>Maintenance: {mayRun.reason}</span>
        )}
      </header>
      {node.sandboxes.length > 0 ? (
        <ul className={styles.sandboxes} aria-label={`Sandboxes on ${node.name}`}>
          {node.sandboxes.map((sandbox) => (
            <li key={sandbox.id}>
              <span className={styles.sandboxName}>{sandbox.name}</span>
              <PhaseBadge phase={sandbox.phase} />
              {sandbox.warmPool ? <span className={styles.muted}>waiting in warm pool {sandbox.warmPool}</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
      {previewing ? <DrainPreview node={node.name} running={running} onStarted={onStarted} /> : null}
      {!mayRead.allowed ? null : runs.error ? (
        <p className={styles.warning} role="alert">
          {runs.error.message}
        </p>
      ) : (
        <NodeMaintenance node={node.name} runs={runs.data ?? []} shownId={shownRun} onShow={setShownRun} />
      )}
    </section>
  );
}

/** The cluster's nodes with the sandboxes on each, kept current by the event stream. */
export function LiveNodeList({ initialNodes, initialAt }: { initialNodes: NodeView[]; initialAt: number }) {
  const { data: nodes } = useServerRenderedQuery({ queryKey: ["nodes"], queryFn: ({ signal }) => fetchNodes(signal) }, initialNodes);
  if (nodes.length === 0) {
    return (
      <EmptyState icon={<NodeIcon />} title="No nodes to show">
        <p>Berth is not watching a cluster yet, or the cluster has no nodes: see the status in the header.</p>
      </EmptyState>
    );
  }
  return (
    <div className={styles.list}>
      {nodes.map((node) => (
        <NodeCard key={node.name} node={node} />
      ))}
    </div>
  );
}
