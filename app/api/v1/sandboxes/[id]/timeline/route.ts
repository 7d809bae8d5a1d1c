import { apiRoute, BadRequestError } from "@/lib/server/api-route.ts";
import { getRuntime } from "@/lib/server/runtime.ts";
import { SandboxNotFoundError } from "@/lib/store/index.ts";

export const dynamic = "force-dynamic";

const PAGE = 1000;

/**
 * The stored timeline, oldest first, a page at a time: `nextCursor` (an event id) is where the
 * next page starts; `?after={event id}` is the same cursor under the name SSE clients know.
 */
export const GET = apiRoute(async (request: Request, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const { store } = await getRuntime();
  if (!(await store.sandboxes.getSandbox(id))) throw new SandboxNotFoundError(id);
  const params = new URL(request.url).searchParams;
  const after = params.get("cursor") ?? params.get("after") ?? undefined;
  if (after !== undefined && !/^\d+$/.test(after)) throw new BadRequestError("invalid-cursor", "cursor must be the nextCursor of an earlier page (an event id)");
  const items = await store.timeline.listForSandbox(id, { after, limit: PAGE });
  return Response.json({ items, nextCursor: items.length === PAGE ? items.at(-1)!.id : null });
});
