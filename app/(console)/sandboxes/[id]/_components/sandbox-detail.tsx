"use client";

import type { ReactNode } from "react";
import { useNow } from "@/app/(console)/_components/use-now.ts";
import { formatTimestamp } from "@/app/components/format.ts";
import { PhaseBadge } from "@/app/components/phase-badge.tsx";
import type { Checkpoint } from "@/lib/domain/checkpoint.ts";
import type { SandboxRecord } from "@/lib/domain/sandbox-record.ts";
import type { TimelineEvent } from "@/lib/domain/timeline.ts";
import { CheckpointList, workspaceClaimOf } from "./checkpoint-list.tsx";
import { CommandRunner } from "./command-runner.tsx";
import { ConditionsTable } from "./conditions-table.tsx";
import { IdentityFacts, ProtectionFacts, WorkspaceFacts } from "./sandbox-facts.tsx";
import { SandboxActions } from "./sandbox-actions.tsx";
import { sandboxQueries } from "./sandbox-api.ts";
import type { SandboxStorage } from "./sandbox-claims.ts";
import { Section } from "./section.tsx";
import { TimelinePanel } from "./timeline-panel.tsx";
import styles from "./sandbox-detail.module.css";
import { useServerRenderedQuery } from "@/app/(console)/_components/server-rendered.ts";

/**
 * The live part of the detail page: every panel reads the same three queries, which the event
 * stream marks stale. `changes`: who asked for what, rendered on the server (the audit log's entries for this sandbox). */
export function SandboxDetail({ initial, storage, initialAt, changes }: { initial: { record: SandboxRecord; timeline: TimelineEvent[]; checkpoints: Checkpoint[] }; storage: SandboxStorage; initialAt: number; changes: ReactNode }) {
  const id = initial.record.id;
  const now = useNow(initialAt, 5_000);
  // The verdict arrives as a DurableState event, which marks these queries stale like any other.
  // Once deleted (the delete answers the record), nothing of it is fetched again: it would be a 404.
  const { data: record, error } = useServerRenderedQuery({ ...sandboxQueries.record(id), enabled: (query) => !query.state.data?.deletedAt }, initial.record);
  const live = !record.deletedAt;
  const { data: timeline } = useServerRenderedQuery({ ...sandboxQueries.timeline(id), enabled: live }, initial.timeline);
  const { data: checkpoints } = useServerRenderedQuery({ ...sandboxQueries.checkpoints(id), enabled: live }, initial.checkpoints);
  const durableState = record.details.durableState ?? null;

  return (
    <div className={styles.page}>
      <section className={styles.summary} aria-label="Status">
        <div className={styles.phase}>
          <PhaseBadge phase={record.phase} />
          {record.reason ? <span className={styles.reason}>{record.reason}</span> : null}
        </div>
        {record.message ? <p className={styles.message}>{record.message}</p> : null}
        {record.deletedAt ? (
          <p className={styles.notice} role="note">
            Deleted at {formatTimestamp(record.deletedAt)}. Its record and timeline are kept.
          </p>
        ) : null}
        {error ? (
          <p className={styles.warning} role="alert">
            Could not refresh this sandbox: {error.message}. Showing what was last received.
          </p>
        ) : null}
        <SandboxActions record={record} storage={storage} />
      </section>

      <div className={styles.grid}>
        <Section title="Conditions">
          <ConditionsTable conditions={record.conditions} now={now} />
        </Section>
        <Section title="Identity">
          <IdentityFacts record={record} />
        </Section>
        <Section title="Workspace and claims">
          <WorkspaceFacts record={record} storage={storage} />
        </Section>
        <Section title="Eviction protection">
          <ProtectionFacts record={record} />
        </Section>
      </div>

      <Section title="Timeline">
        <TimelinePanel events={timeline} durableState={durableState} now={now} />
      </Section>

      <div className={styles.grid}>
        <Section title="Run a command">
          <CommandRunner sandboxId={id} namespace={record.namespace} ready={record.phase === "Ready" && !record.deletedAt} mountPath={storage.mountPath} />
        </Section>
        <Section title="Checkpoints">
          <CheckpointList checkpoints={checkpoints} workspaceClaim={workspaceClaimOf(storage, record.namespace)} />
        </Section>
      </div>

      <Section title="Who did what">{changes}</Section>
    </div>
  );
}
