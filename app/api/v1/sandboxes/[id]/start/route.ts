import { setSandboxRunning } from "@/lib/sandboxes/sandbox-actions.ts";
import { actorOf, apiRoute } from "@/lib/server/api-route.ts";
import { getRuntime } from "@/lib/server/runtime.ts";
import { sandboxServiceDeps } from "@/lib/server/sandbox-service.ts";

export const dynamic = "force-dynamic";

export const POST = apiRoute(async (request: Request, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const record = await setSandboxRunning(await sandboxServiceDeps(await getRuntime()), id, true, actorOf(request));
  return Response.json(record, { status: 202 });
});
