import { requestCancel } from "@/lib/sandboxes/maintenance-requests.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";

export const dynamic = "force-dynamic";

/**
 * Asks the run to stop after its current step (budgets restored, node left cordoned), whichever
 * replica runs it; 409 when it is not running.
 */
export const POST = endpointRoute("cancelMaintenance", async ({ runtime, params }) => {
  await requestCancel(runtime.store, params.id);
  return Response.json({ cancelling: params.id }, { status: 202 });
});
