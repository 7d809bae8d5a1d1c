import { z } from "zod";
import { maintenancePreviewSchema, type MaintenancePreview } from "@/lib/disruption/maintenance-preview.ts";
import { nodeViewSchema, type NodeView } from "@/lib/sandboxes/describe-nodes.ts";

// The nodes and a node's drain preview, as the API sends them.

const pageSchema = z.object({ items: z.array(nodeViewSchema), nextCursor: z.string().nullable() });

export async function fetchNodes(signal?: AbortSignal): Promise<NodeView[]> {
  const nodes: NodeView[] = [];
  let cursor: string | null = null;
  do {
    const response = await fetch(`/api/v1/nodes?limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { signal });
    if (!response.ok) throw new Error(`Listing nodes failed: HTTP ${response.status}`);
    const page = pageSchema.parse(await response.json());
    nodes.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return nodes;
}

export async function fetchPreview(node: string, signal?: AbortSignal): Promise<MaintenancePreview> {
  const response = await fetch(`/api/v1/nodes/${encodeURIComponent(node)}/maintenance/preview`, { signal });
  if (!response.ok) throw new Error(`The drain preview failed: HTTP ${response.status}`);
  return maintenancePreviewSchema.parse(await response.json());
}
