import { NodeNotFoundError } from "@/lib/sandboxes/lifecycle-errors.ts";
import { ClusterUnavailableError } from "@/lib/server/api-problems.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";

export const dynamic = "force-dynamic";

/** What draining the node would do to each pod on it, before anything is done. */
export const GET = endpointRoute("previewMaintenance", async ({ runtime, params }) => {
  const reconciler = runtime.reconciler.current();
  if (!reconciler) throw new ClusterUnavailableError("Berth is not watching the cluster yet (it is unreachable or has no agent-sandbox CRDs); see GET /api/health.");
  const preview = await reconciler.maintenancePreview(params.name);
  if (!preview) throw new NodeNotFoundError(params.name);
  return Response.json(preview);
});
