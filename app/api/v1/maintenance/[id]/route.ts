import { MaintenanceRunNotFoundError } from "@/lib/sandboxes/lifecycle-errors.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";

export const dynamic = "force-dynamic";

/** One maintenance run with its progress per sandbox and pod. */
export const GET = endpointRoute("getMaintenance", async ({ runtime, params }) => {
  const run = await runtime.store.maintenance.getRun(params.id);
  if (!run) throw new MaintenanceRunNotFoundError(params.id);
  return Response.json(run);
});
