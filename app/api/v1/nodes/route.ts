import { pageOfNodes } from "@/lib/sandboxes/describe-nodes.ts";
import { ClusterUnavailableError } from "@/lib/server/api-problems.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { visibleSandboxItems } from "@/lib/server/visibility.ts";

export const dynamic = "force-dynamic";

/** The cluster's nodes by name, each with the sandboxes on it that the caller may see, a page at a time. */
export const GET = endpointRoute("listNodes", async ({ runtime, caller, query }) => {
  const reconciler = runtime.reconciler.current();
  if (!reconciler) throw new ClusterUnavailableError("Berth is not watching the cluster yet (it is unreachable or has no agent-sandbox CRDs); see GET /api/health.");
  const page = pageOfNodes(reconciler.nodeViews(), query);
  const items = await Promise.all(page.items.map(async (node) => ({ ...node, sandboxes: await visibleSandboxItems(runtime, caller.person, node.sandboxes) })));
  return Response.json({ ...page, items });
});
