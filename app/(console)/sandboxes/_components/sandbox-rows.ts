import { api, everyPage } from "@/app/(console)/_components/api-client.ts";
import type { SandboxDetails } from "@/lib/domain/sandbox-details.ts";
import type { SandboxRecord } from "@/lib/domain/sandbox-record.ts";

// A sandbox as the live table shows it: only what the table needs of a record, so the page's
// HTML carries no more than that for a thousand sandboxes.

export type SandboxRow = Pick<SandboxRecord, "id" | "name" | "namespace" | "phase" | "reason" | "message" | "nodeName" | "workspaceBackend" | "createdAt" | "updatedAt"> & {
  profile: string;
  protection: SandboxDetails["protection"];
  disruption: SandboxDetails["disruption"];
  handout: SandboxDetails["handout"];
};

export function sandboxRow(record: SandboxRecord): SandboxRow {
  const { id, name, namespace, phase, reason, message, nodeName, workspaceBackend, createdAt, updatedAt, spec, details } = record;
  const profile = typeof spec.profile === "string" ? spec.profile : "generic";
  return { id, name, namespace, phase, reason, message, nodeName, workspaceBackend, createdAt, updatedAt, profile, protection: details.protection, disruption: details.disruption, handout: details.handout };
}

/** Newest first; the id settles a tie. */
export function newestFirst(a: SandboxRow, b: SandboxRow): number {
  return b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1);
}

/** Every live sandbox, following the cursor page by page. */
export async function fetchSandboxRows(signal?: AbortSignal): Promise<SandboxRow[]> {
  return (await everyPage("sandboxes", (query) => api.listSandboxes({ query, signal }))).map(sandboxRow);
}

/** The rows a filter keeps: a phase (or all) and a search in name, namespace and node. */
export function filterRows(rows: readonly SandboxRow[], filter: { phase: string; search: string }): SandboxRow[] {
  const needle = filter.search.trim().toLowerCase();
  return rows.filter(
    (row) =>
      (filter.phase === "" || row.phase === filter.phase) &&
      (needle === "" || [row.name, row.namespace, row.nodeName ?? ""].some((text) => text.toLowerCase().includes(needle))),
  );
}
