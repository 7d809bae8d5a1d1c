import { recoverSandbox } from "@/lib/sandboxes/sandbox-actions.ts";
import { actorOf, apiRoute } from "@/lib/server/api-route.ts";
import { getRuntime } from "@/lib/server/runtime.ts";
import { sandboxServiceDeps } from "@/lib/server/sandbox-service.ts";

export const dynamic = "force-dynamic";

/** Replaces a failed or crash-looping pod; 409 when there is nothing to recover. */
export const POST = apiRoute(async (request: Request, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  return Response.json(await recoverSandbox(await sandboxServiceDeps(await getRuntime()), id, actorOf(request)), { status: 202 });
});
