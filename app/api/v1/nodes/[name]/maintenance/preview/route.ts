import { NodeNotFoundError } from "@/lib/sandboxes/lifecycle-errors.ts";
import { apiRoute, ClusterUnavailableError } from "@/lib/server/api-route.ts";
import { getRuntime } from "@/lib/server/runtime.ts";

export const dynamic = "force-dynamic";

/** What draining the node would do to each pod on it, before anything is done. */
export const GET = apiRoute(async (_request: Request, context: { params: Promise<{ name: string }> }) => {
  const { name } = await context.params;
  const reconciler = (await getRuntime()).reconciler.current();
  if (!reconciler) throw new ClusterUnavailableError("Berth is not watching the cluster yet (it is unreachable or has no agent-sandbox CRDs); see GET /api/health.");
  const preview = await reconciler.maintenancePreview(name);
  if (!preview) throw new NodeNotFoundError(name);
  return Response.json(preview);
});
