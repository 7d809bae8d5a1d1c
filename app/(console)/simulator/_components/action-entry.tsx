import Link from "next/link";
import type { ApiProblem } from "@/app/(console)/_components/api-client.ts";
import type { SimulatorActionResult } from "@/lib/domain/simulator.ts";
import styles from "./simulator.module.css";

/** One action the person took: while it runs, what it is doing; then what happened, or the server's refusal. */
export interface ActionEntry {
  id: number;
  /** The node whose card shows it (a pod action: the node the pod was on). */
  node: string | null;
  /** "Draining worker-1", "Deleting pod default/box". */
  doing: string;
  state: "running" | "done" | "failed";
  result: SimulatorActionResult | null;
  problem: ApiProblem | null;
  /** The sandboxes the action touches, by `namespace/pod`, to link to their pages. */
  sandboxes: Record<string, { id: string; name: string }>;
}

function PodKeys({ label, keys, sandboxes }: { label: string; keys: string[]; sandboxes: ActionEntry["sandboxes"] }) {
  if (keys.length === 0) return null;
  return (
    <div className={styles.report}>
      <span className={styles.reportLabel}>{label}</span>
      <ul className={styles.inline}>
        {keys.map((key) => {
          const sandbox = sandboxes[key];
          return <li key={key}>{sandbox ? <Link href={`/sandboxes/${sandbox.id}`} prefetch={false}>{key}</Link> : key}</li>;
        })}
      </ul>
    </div>
  );
}

export function ActionEntryView({ entry }: { entry: ActionEntry }) {
  const links = Object.entries(entry.sandboxes);
  return (
    <div className={styles.entry} data-state={entry.state}>
      {entry.state === "running" ? <p className={styles.entryDoing}>{entry.doing}…</p> : null}
      {entry.problem ? (
        <div role="alert">
          <strong>{entry.problem.title}</strong>
          <p>{entry.problem.detail}</p>
        </div>
      ) : null}
      {entry.result ? (
        <>
          <p>{entry.result.message}</p>
          {entry.result.drain ? (
            <>
              <PodKeys label="Evicted" keys={entry.result.drain.evicted} sandboxes={entry.sandboxes} />
              <PodKeys label="Blocked by a budget" keys={entry.result.drain.blocked} sandboxes={entry.sandboxes} />
              <PodKeys label="Refused" keys={entry.result.drain.refused} sandboxes={entry.sandboxes} />
            </>
          ) : null}
          {!entry.result.drain && links.length > 0 ? (
            <div className={styles.report}>
              <span className={styles.reportLabel}>Follow the timeline</span>
              <ul className={styles.inline}>
                {links.map(([key, sandbox]) => (
                  <li key={key}>
                    <Link href={`/sandboxes/${sandbox.id}`} prefetch={false}>{sandbox.name}</Link>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
