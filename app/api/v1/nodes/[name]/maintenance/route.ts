import { ClusterUnavailableError } from "@/lib/server/api-problems.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import type { Runtime } from "@/lib/server/runtime.ts";

export const dynamic = "force-dynamic";

function runner(runtime: Runtime) {
  const maintenance = runtime.reconciler.maintenance();
  if (!maintenance) throw new ClusterUnavailableError("Berth is not watching the cluster yet (it is unreachable or has no agent-sandbox CRDs); see GET /api/health.");
  return maintenance;
}

/**
 * Starts planned maintenance of the node; answers 202 with the run at once. Each step is on the
 * timeline (GET /api/v1/events) as it happens; GET /api/v1/maintenance/{id} has the progress.
 */
export const POST = endpointRoute("startMaintenance", async ({ runtime, params, body, actor, kube }) => {
  // The cordon and the evictions are the person's own, as `kubectl drain` by them would be.
  const run = await runner(runtime).start(params.name, body, actor, kube());
  return Response.json(run, { status: 202, headers: { Location: `/api/v1/maintenance/${run.id}` } });
});

/** The node's maintenance runs, newest first. */
export const GET = endpointRoute("listNodeMaintenance", async ({ runtime, params }) => Response.json({ items: await runtime.store.maintenance.listRunsForNode(params.name) }));
