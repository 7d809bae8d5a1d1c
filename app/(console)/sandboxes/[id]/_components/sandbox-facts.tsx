import Link from "next/link";
import type { ReactNode } from "react";
import { UsageMeter, usageText } from "@/app/components/usage-meter.tsx";
import { isNearlyFull } from "@/lib/domain/volume-usage.ts";
import { OWNERSHIP_LIFECYCLE } from "@/app/(console)/volumes/_components/volume-rows.ts";
import tableStyles from "@/app/components/data-table.module.css";
import { userLabelsOf } from "@/lib/domain/labels.ts";
import { containerFor, profileSchema } from "@/lib/domain/profiles.ts";
import type { SandboxRecord } from "@/lib/domain/sandbox-record.ts";
import { claimFate } from "@/lib/domain/workspace.ts";
import type { SandboxStorage } from "./sandbox-claims.ts";
import styles from "./sandbox-detail.module.css";
import { ScrollRegion } from "./scroll-region.tsx";

// The facts panels of the detail page: renderers only, fed the live record.

const none = <span className={styles.muted}>none</span>;

export function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className={styles.facts}>
      {rows.map(([term, value]) => (
        <div key={term} className={styles.fact}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

const mono = (value: string | null) => (value ? <code>{value}</code> : none);

/** The person's labels as `key=value`, one per line, in key order. */
function labelList(labels: Record<string, string>): ReactNode {
  const entries = Object.entries(labels).sort(([a], [b]) => a.localeCompare(b));
  if (entries.length === 0) return none;
  return (
    <ul className={styles.labelList}>
      {entries.map(([key, value]) => (
        <li key={key}>
          <code>
            {key}={value}
          </code>
        </li>
      ))}
    </ul>
  );
}

export function IdentityFacts({ record }: { record: SandboxRecord }) {
  const profile = profileSchema.safeParse(record.spec.profile ?? "generic");
  const image = typeof record.spec.image === "string" ? record.spec.image : profile.success ? containerFor({ profile: profile.data }).image : undefined;
  return (
    <Facts
      rows={[
        ["Namespace", mono(record.namespace)],
        ["Node", mono(record.nodeName)],
        ["Pod", mono(record.podName)],
        ["Pod UID", mono(record.podUid)],
        ["Previous node", mono(record.previousNodeName)],
        ["Previous pod UID", mono(record.previousPodUid)],
        ["Profile", profile.success ? profile.data : <span className={styles.muted}>unknown ({String(record.spec.profile)})</span>],
        ["Image", image ? mono(image) : <span className={styles.muted}>not recorded (made outside Berth)</span>],
        ["Labels", labelList(userLabelsOf(record.spec))],
        ...handoutFacts(record.details.handout),
      ]}
    />
  );
}

/** Where a sandbox of agent-sandbox's extensions came from: a warm pool it waits in, or the claim it was handed to. */
function handoutFacts(handout: SandboxRecord["details"]["handout"]): [string, ReactNode][] {
  if (!handout) return [];
  if (handout.pool) return [["Warm pool", <>{mono(handout.pool)} (waiting to be handed out)</>]];
  const start = handout.launchType === "warm" ? "a warm start: handed over from the template's warm pool, already running" : handout.launchType === "cold" ? "a cold start: started for the claim, no pool member was ready" : "not known yet";
  return [["Claim", mono(handout.claim)], ["Start", start]];
}

export function WorkspaceFacts({ record, storage }: { record: SandboxRecord; storage: SandboxStorage }) {
  return (
    <>
      <Facts
        rows={[
          ["Backend", storage.backend === "pvc" ? "Claim (pvc): survives pod replacement" : "Ephemeral (emptyDir): fresh at every pod start"],
          ["Mount path", mono(storage.mountPath)],
        ]}
      />
      {storage.claims.filter((claim) => claim.usage && isNearlyFull(claim.usage)).map((claim) => (
        <p key={claim.name} className={styles.warning} role="status">
          Claim <Link href={`/volumes/${record.namespace}/${claim.name}`}>{claim.name}</Link> is nearly full: {usageText(claim.usage!)}. Writes
          to it will soon fail; free space in it, or expand it from the Volumes page where its class allows.
        </p>
      ))}
      {storage.claims.length === 0 ? (
        <p className={styles.muted}>No claims: {storage.backend === "ephemeral" ? "the workspace lives and dies with each pod." : "nothing is mounted from a claim."}</p>
      ) : (
        <ScrollRegion label={`Claims of ${record.name}`}>
        <table className={tableStyles.table} aria-label={`Claims of ${record.name}`}>
          <thead>
            <tr>
              <th scope="col">Claim</th>
              <th scope="col">Ownership</th>
              <th scope="col">On delete</th>
              <th scope="col">Used</th>
            </tr>
          </thead>
          <tbody>
            {storage.claims.map((claim) => (
              <tr key={claim.name}>
                <th scope="row" className={tableStyles.mono}>
                  {claim.name}
                  <span className={styles.sub}>mounted as {claim.mountedBy.join(", ")}</span>
                </th>
                <td title={OWNERSHIP_LIFECYCLE[claim.ownership]}>{claim.ownership}</td>
                <td className={styles.cellWrap}>{claimFate(claim.ownership) === "removed" ? "Removed with the sandbox" : "Kept"}</td>
                <td>{claim.usage ? <UsageMeter usage={claim.usage} label={`How full ${claim.name} is`} /> : <span className={styles.muted}>unknown</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
        </ScrollRegion>
      )}
    </>
  );
}

export function ProtectionFacts({ record }: { record: SandboxRecord }) {
  const data = record.details.protection;
  if (!data) return <p className={styles.muted}>Not derived yet: the reconciler has not looked at this sandbox&apos;s budget.</p>;
  const state = data.drainBlocked ? "Protected — a drain is waiting on it" : data.protected ? "Protected" : data.wanted ? "Asked for, but not in effect" : "Not protected";
  return (
    <>
      <Facts
        rows={[
          ["State", <span key="state" className={data.drainBlocked || (data.wanted && !data.protected) ? styles.warning : undefined}>{state}</span>],
          ["PodDisruptionBudget", mono(data.budgetName)],
          ["Refusing evictions now", data.protected ? (data.refusingEvictions ? "Yes (minAvailable 1)" : "No") : none],
        ]}
      />
      {data.message ? <p className={styles.explain}>{data.message}</p> : <p className={styles.muted}>A drain evicts this sandbox without waiting; its pod is replaced elsewhere.</p>}
    </>
  );
}
