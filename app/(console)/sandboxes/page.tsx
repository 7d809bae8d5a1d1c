import type { Metadata } from "next";
import { connection } from "next/server";
import { getRuntime } from "@/lib/server/runtime.ts";
import { EmptyState } from "@/app/components/empty-state.tsx";
import { SandboxIcon } from "@/app/components/icons.tsx";
import { PageHeader } from "@/app/components/page-header.tsx";
import { SandboxTable, type SandboxRow } from "@/app/components/sandbox-table.tsx";
import styles from "../page.module.css";

export const metadata: Metadata = { title: "Sandboxes" };

const PAGE_SIZE = 100;

export default async function SandboxesPage() {
  await connection();
  const { store } = await getRuntime();
  const { items, nextCursor } = await store.sandboxes.listSandboxes({ limit: PAGE_SIZE });
  const now = new Date();

  const rows: SandboxRow[] = items.map((sandbox) => ({
    id: sandbox.id,
    name: sandbox.name,
    namespace: sandbox.namespace,
    phase: sandbox.phase,
    createdAt: sandbox.createdAt,
  }));

  return (
    <>
      <PageHeader title="Sandboxes" description="Agent environments: each one a Sandbox resource, its pod and its workspace." />
      {rows.length === 0 ? (
        <EmptyState icon={<SandboxIcon />} title="No sandboxes yet">
          <p>
            This version creates sandboxes through its API only (<code>POST /api/v1/sandboxes</code>); the create form
            comes later. Sandboxes you create will be listed here with their phase and age.
          </p>
        </EmptyState>
      ) : (
        <>
          <SandboxTable sandboxes={rows} now={now} caption={`Sandboxes (${rows.length})`} />
          <p className={styles.footnote}>
            {nextCursor
              ? `Showing the first ${rows.length} sandboxes.`
              : `${rows.length} ${rows.length === 1 ? "sandbox" : "sandboxes"}.`}
          </p>
        </>
      )}
    </>
  );
}
