import { apiRoute } from "@/lib/server/api-route.ts";
import { getRuntime } from "@/lib/server/runtime.ts";
import { MaintenanceRunNotFoundError } from "@/lib/sandboxes/lifecycle-errors.ts";

export const dynamic = "force-dynamic";

/** One maintenance run with its progress per sandbox and pod. */
export const GET = apiRoute(async (_request: Request, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const run = /^[0-9a-f-]{36}$/i.test(id) ? await (await getRuntime()).store.maintenance.getRun(id) : null;
  if (!run) throw new MaintenanceRunNotFoundError(id);
  return Response.json(run);
});
