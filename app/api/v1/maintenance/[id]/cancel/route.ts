import { SandboxStateError } from "@/lib/sandboxes/lifecycle-errors.ts";
import { apiRoute, ClusterUnavailableError } from "@/lib/server/api-route.ts";
import { getRuntime } from "@/lib/server/runtime.ts";

export const dynamic = "force-dynamic";

/** Stops the run after its current step (budgets restored, node left cordoned); 409 when it is not running. */
export const POST = apiRoute(async (_request: Request, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const maintenance = (await getRuntime()).reconciler.maintenance();
  if (!maintenance) throw new ClusterUnavailableError("Berth is not watching the cluster yet; see GET /api/health.");
  if (!maintenance.cancel(id)) throw new SandboxStateError(`Maintenance run ${id} is not running in this console: it has finished, or it never existed.`);
  return Response.json({ cancelling: id }, { status: 202 });
});
