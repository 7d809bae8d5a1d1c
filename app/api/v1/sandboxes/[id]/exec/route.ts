import { execRequestSchema } from "@/lib/domain/exec-request.ts";
import { execInSandbox } from "@/lib/sandboxes/sandbox-actions.ts";
import { actorOf, apiRoute, parsedBody } from "@/lib/server/api-route.ts";
import { getRuntime } from "@/lib/server/runtime.ts";
import { sandboxServiceDeps } from "@/lib/server/sandbox-service.ts";

export const dynamic = "force-dynamic";

/** `{command: string[], timeoutSeconds?}` → `{exitCode, stdout, stderr}`. */
export const POST = apiRoute(async (request: Request, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const { command, timeoutSeconds } = await parsedBody(request, execRequestSchema);
  return Response.json(await execInSandbox(await sandboxServiceDeps(await getRuntime()), id, command, timeoutSeconds, actorOf(request)));
});
