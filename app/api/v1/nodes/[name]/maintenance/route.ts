import { lastingCredential } from "@/lib/kube/acting-as.ts";
import { requestMaintenance } from "@/lib/sandboxes/maintenance-requests.ts";
import { ClusterUnavailableError } from "@/lib/server/api-problems.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";

export const dynamic = "force-dynamic";

/**
 * Asks for planned maintenance of the node; answers 202 with the run at once, which the elected
 * writer runs. Each step is on the timeline (GET /api/v1/events) as it happens; GET
 * /api/v1/maintenance/{id} has the progress.
 */
export const POST = endpointRoute("startMaintenance", async ({ runtime, params, body, actor, caller, credential }) => {
  const reconciler = runtime.reconciler.current();
  if (!reconciler) throw new ClusterUnavailableError("Berth is not watching the cluster yet (it is unreachable or has no agent-sandbox CRDs); see GET /api/health.");
  // The cordon and the evictions are the person's own, as `kubectl drain` by them would be.
  const authority = lastingCredential(credential, caller?.person ?? null);
  const run = await requestMaintenance({ store: runtime.store, preview: (node) => reconciler.maintenancePreview(node) }, params.name, body, actor, authority);
  return Response.json(run, { status: 202, headers: { Location: `/api/v1/maintenance/${run.id}` } });
});

/** The node's maintenance runs, newest first. */
export const GET = endpointRoute("listNodeMaintenance", async ({ runtime, params }) => Response.json({ items: await runtime.store.maintenance.listRunsForNode(params.name) }));
