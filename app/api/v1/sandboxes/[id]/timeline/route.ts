import { endpointRoute } from "@/lib/server/endpoint-route.ts";

export const dynamic = "force-dynamic";

const PAGE = 1000;

/**
 * The stored timeline, oldest first, a page at a time: `nextCursor` (an event id) is where the
 * next page starts; `?after={event id}` is the same cursor under the name SSE clients know.
 */
export const GET = endpointRoute("sandboxTimeline", async ({ runtime, sandbox, query }) => {
  const items = await runtime.store.timeline.listForSandbox(sandbox.id, { after: query.cursor ?? query.after, limit: PAGE });
  return Response.json({ items, nextCursor: items.length === PAGE ? items.at(-1)!.id : null });
});
