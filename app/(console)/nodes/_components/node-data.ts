import { callApi } from "@/app/(console)/_components/api-client.ts";
import { fetchAllPages } from "@/app/(console)/_components/fetch-all-pages.ts";
import { maintenancePreviewSchema, type MaintenancePreview } from "@/lib/domain/maintenance-preview.ts";
import { nodeViewSchema, type NodeView } from "@/lib/domain/node-view.ts";

// The nodes and a node's drain preview, as the API sends them.


export function fetchNodes(signal?: AbortSignal): Promise<NodeView[]> {
  return fetchAllPages("/api/v1/nodes", nodeViewSchema, "nodes", signal);
}

export function fetchPreview(node: string, signal?: AbortSignal): Promise<MaintenancePreview> {
  return callApi(`/api/v1/nodes/${encodeURIComponent(node)}/maintenance/preview`, maintenancePreviewSchema, { signal });
}
