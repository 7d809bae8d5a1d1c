import { checkpointSandbox } from "@/lib/sandboxes/checkpoint-sandbox.ts";
import { actorOf, apiRoute } from "@/lib/server/api-route.ts";
import { getRuntime } from "@/lib/server/runtime.ts";
import { sandboxServiceDeps } from "@/lib/server/sandbox-service.ts";

export const dynamic = "force-dynamic";

/**
 * Runs a checkpoint now and answers with how it went (Succeeded, Failed or TimedOut — a result,
 * not an error); 409 when the sandbox has no running pod or is already checkpointing. Progress
 * is on the timeline (GET /api/v1/events) while it runs.
 */
export const POST = apiRoute(async (request: Request, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  return Response.json(await checkpointSandbox(await sandboxServiceDeps(await getRuntime()), id, "Manual", actorOf(request)));
});
