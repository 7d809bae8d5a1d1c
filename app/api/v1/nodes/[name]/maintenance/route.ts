import { maintenanceOptionsSchema } from "@/lib/domain/maintenance.ts";
import { actorOf, apiRoute, ClusterUnavailableError, parsedBody } from "@/lib/server/api-route.ts";
import { getRuntime } from "@/lib/server/runtime.ts";

export const dynamic = "force-dynamic";

async function runner() {
  const maintenance = (await getRuntime()).reconciler.maintenance();
  if (!maintenance) throw new ClusterUnavailableError("Berth is not watching the cluster yet (it is unreachable or has no agent-sandbox CRDs); see GET /api/health.");
  return maintenance;
}

/**
 * Starts planned maintenance of the node; answers 202 with the run at once. Each step is on the
 * timeline (GET /api/v1/events) as it happens; GET /api/v1/maintenance/{id} has the progress.
 */
export const POST = apiRoute(async (request: Request, context: { params: Promise<{ name: string }> }) => {
  const { name } = await context.params;
  const options = await parsedBody(request, maintenanceOptionsSchema);
  const run = await (await runner()).start(name, options, actorOf(request));
  return Response.json(run, { status: 202, headers: { Location: `/api/v1/maintenance/${run.id}` } });
});

/** The node's maintenance runs, newest first. */
export const GET = apiRoute(async (_request: Request, context: { params: Promise<{ name: string }> }) => {
  const { name } = await context.params;
  return Response.json({ items: await (await getRuntime()).store.maintenance.listRunsForNode(name) });
});
