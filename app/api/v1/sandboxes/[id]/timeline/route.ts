import { apiRoute } from "@/lib/server/api-route.ts";
import { getRuntime } from "@/lib/server/runtime.ts";
import { SandboxNotFoundError } from "@/lib/store/index.ts";

export const dynamic = "force-dynamic";

/** The stored timeline, oldest first (`?after={event id}` for what came later). */
export const GET = apiRoute(async (request: Request, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const { store } = await getRuntime();
  if (!(await store.sandboxes.getSandbox(id))) throw new SandboxNotFoundError(id);
  const after = new URL(request.url).searchParams.get("after") ?? undefined;
  return Response.json({ items: await store.timeline.listForSandbox(id, { after: after && /^\d+$/.test(after) ? after : undefined, limit: 1000 }) });
});
