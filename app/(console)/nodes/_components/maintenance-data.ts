import { api } from "@/app/(console)/_components/api-client.ts";
import type { MaintenanceRun } from "@/lib/domain/maintenance.ts";

// The calls that start, follow and cancel maintenance runs. Query keys sit under
// ["nodes", node] so the event stream's refresh of the nodes (every timeline event, maintenance
// steps included) refreshes them as well.

export const runsKey = (node: string) => ["nodes", node, "maintenance"] as const;
export const runKey = (node: string, id: string) => ["nodes", node, "maintenance", id] as const;

/** The node's runs, newest first. */
export async function fetchRuns(node: string, signal?: AbortSignal): Promise<MaintenanceRun[]> {
  return (await api.listNodeMaintenance({ params: { name: node }, signal })).items;
}

export function fetchRun(id: string, signal?: AbortSignal): Promise<MaintenanceRun> {
  return api.getMaintenance({ params: { id }, signal });
}

/** Starts maintenance with the server's default options; the run answers at once, Running. */
export function startMaintenance(node: string): Promise<MaintenanceRun> {
  return api.startMaintenance({ params: { name: node }, body: {} });
}

export function cancelMaintenance(id: string): Promise<unknown> {
  return api.cancelMaintenance({ params: { id } });
}
