import { deleteSandbox } from "@/lib/sandboxes/sandbox-actions.ts";
import { actorOf, apiRoute } from "@/lib/server/api-route.ts";
import { getRuntime } from "@/lib/server/runtime.ts";
import { sandboxServiceDeps } from "@/lib/server/sandbox-service.ts";
import { SandboxNotFoundError } from "@/lib/store/index.ts";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export const GET = apiRoute(async (_request: Request, context: Context) => {
  const { id } = await context.params;
  const { store } = await getRuntime();
  const record = await store.sandboxes.getSandbox(id);
  if (!record) throw new SandboxNotFoundError(id);
  return Response.json(record);
});

/** Deletes the sandbox; says which claims were removed and which were kept. */
export const DELETE = apiRoute(async (request: Request, context: Context) => {
  const { id } = await context.params;
  return Response.json(await deleteSandbox(await sandboxServiceDeps(await getRuntime()), id, actorOf(request)));
});
