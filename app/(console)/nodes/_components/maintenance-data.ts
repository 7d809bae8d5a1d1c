import { z } from "zod";
import { callApi } from "@/app/(console)/_components/api-client.ts";
import { maintenanceRunSchema } from "@/lib/domain/maintenance.ts";

// Maintenance runs as the API sends them (JSON: dates as strings), and the calls that start,
// follow and cancel them. Query keys sit under ["nodes", node] so the event stream's refresh of
// the nodes (every timeline event, maintenance steps included) refreshes them as well.

export const maintenanceRunWireSchema = maintenanceRunSchema.extend({ startedAt: z.string(), finishedAt: z.string().nullable() });
export type MaintenanceRunView = z.infer<typeof maintenanceRunWireSchema>;

export const runsKey = (node: string) => ["nodes", node, "maintenance"] as const;
export const runKey = (node: string, id: string) => ["nodes", node, "maintenance", id] as const;

/** The node's runs, newest first. */
export async function fetchRuns(node: string, signal?: AbortSignal): Promise<MaintenanceRunView[]> {
  return (await callApi(`/api/v1/nodes/${encodeURIComponent(node)}/maintenance`, z.object({ items: z.array(maintenanceRunWireSchema) }), { signal })).items;
}

export function fetchRun(id: string, signal?: AbortSignal): Promise<MaintenanceRunView> {
  return callApi(`/api/v1/maintenance/${encodeURIComponent(id)}`, maintenanceRunWireSchema, { signal });
}

/** Starts maintenance with the server's default options; the run answers at once, Running. */
export function startMaintenance(node: string): Promise<MaintenanceRunView> {
  return callApi(`/api/v1/nodes/${encodeURIComponent(node)}/maintenance`, maintenanceRunWireSchema, { method: "POST", body: {} });
}

export function cancelMaintenance(id: string): Promise<unknown> {
  return callApi(`/api/v1/maintenance/${encodeURIComponent(id)}/cancel`, z.object({ cancelling: z.string() }), { method: "POST" });
}
