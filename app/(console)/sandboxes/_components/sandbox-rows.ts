import { z } from "zod";
import { fetchAllPages } from "@/app/(console)/_components/fetch-all-pages.ts";
import { sandboxPhaseSchema } from "@/lib/domain/sandbox-status.ts";

// A sandbox as the live table shows it, read from GET /api/v1/sandboxes (JSON: dates as
// strings). Only what the table needs; the API sends more.

export const sandboxRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  namespace: z.string(),
  phase: sandboxPhaseSchema,
  reason: z.string().nullable(),
  message: z.string().nullable(),
  nodeName: z.string().nullable(),
  workspaceBackend: z.string(),
  createdAt: z.string(),
  spec: z.object({ profile: z.string().optional() }).loose(),
  details: z
    .object({
      protection: z.object({ protected: z.boolean(), drainBlocked: z.boolean() }).optional(),
      disruption: z.object({ reason: z.string(), at: z.string() }).nullable().optional(),
    })
    .loose(),
});
export type SandboxRow = z.infer<typeof sandboxRowSchema>;


/** Every live sandbox, following the cursor page by page. */
export function fetchSandboxRows(signal?: AbortSignal): Promise<SandboxRow[]> {
  return fetchAllPages("/api/v1/sandboxes", sandboxRowSchema, "sandboxes", signal);
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
