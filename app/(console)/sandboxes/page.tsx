import type { Metadata } from "next";
import { connection } from "next/server";
import Link from "next/link";
import buttons from "@/app/components/buttons.module.css";
import { PageHeader } from "@/app/components/page-header.tsx";
import { getRuntime } from "@/lib/server/runtime.ts";
import { LiveSandboxTable } from "./_components/live-sandbox-table.tsx";
import { sandboxRowSchema, type SandboxRow } from "./_components/sandbox-rows.ts";

export const metadata: Metadata = { title: "Sandboxes" };

/** Every live sandbox, from the server's in-memory list; the table keeps it current from there. */
async function initialRows(): Promise<SandboxRow[]> {
  const { live, store } = await getRuntime();
  const records = live.ready ? live.all() : await store.sandboxes.listAllLive();
  // The same shape the browser gets from GET /api/v1/sandboxes (JSON: dates as strings).
  return records.map((record) => sandboxRowSchema.parse(JSON.parse(JSON.stringify(record)))).sort((a, b) => b.createdAt.localeCompare(a.createdAt) || (a.id < b.id ? 1 : -1));
}

export default async function SandboxesPage() {
  await connection();
  const rows = await initialRows();
  return (
    <>
      <PageHeader
        title="Sandboxes"
        description="Agent environments: each one a Sandbox resource, its pod and its workspace."
        actions={
          <Link href="/sandboxes/new" className={buttons.primary}>
            Create sandbox
          </Link>
        }
      />
      <LiveSandboxTable initialRows={rows} initialAt={Date.now()} />
    </>
  );
}
