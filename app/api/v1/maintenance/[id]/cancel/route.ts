import { SandboxStateError } from "@/lib/sandboxes/lifecycle-errors.ts";
import { ClusterUnavailableError } from "@/lib/server/api-problems.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";

export const dynamic = "force-dynamic";

/** Stops the run after its current step (budgets restored, node left cordoned); 409 when it is not running. */
export const POST = endpointRoute("cancelMaintenance", async ({ runtime, params }) => {
  const maintenance = runtime.reconciler.maintenance();
  if (!maintenance) throw new ClusterUnavailableError("Berth is not watching the cluster yet; see GET /api/health.");
  if (!maintenance.cancel(params.id)) throw new SandboxStateError(`Maintenance run ${params.id} is not running in this console: it has finished, or it never existed.`);
  return Response.json({ cancelling: params.id }, { status: 202 });
});
