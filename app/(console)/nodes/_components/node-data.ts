import { api, everyPage } from "@/app/(console)/_components/api-client.ts";
import type { MaintenancePreview } from "@/lib/domain/maintenance-preview.ts";
import type { NodeView } from "@/lib/domain/node-view.ts";

// The nodes and a node's drain preview, as the API sends them.

export function fetchNodes(signal?: AbortSignal): Promise<NodeView[]> {
  return everyPage("nodes", (query) => api.listNodes({ query, signal }));
}

export function fetchPreview(node: string, signal?: AbortSignal): Promise<MaintenancePreview> {
  return api.previewMaintenance({ params: { name: node }, signal });
}
