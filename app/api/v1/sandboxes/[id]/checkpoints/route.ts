import { apiRoute } from "@/lib/server/api-route.ts";
import { getRuntime } from "@/lib/server/runtime.ts";
import { SandboxNotFoundError } from "@/lib/store/index.ts";

export const dynamic = "force-dynamic";

/** The sandbox's checkpoints, newest first. */
export const GET = apiRoute(async (_request: Request, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const { store } = await getRuntime();
  if (!(await store.sandboxes.getSandbox(id))) throw new SandboxNotFoundError(id);
  return Response.json({ items: await store.checkpoints.listCheckpoints(id) });
});
