import { timelineEventStream } from "@/lib/events/sse-stream.ts";
import { apiRoute, BadRequestError } from "@/lib/server/api-route.ts";
import { getRuntime } from "@/lib/server/runtime.ts";

export const dynamic = "force-dynamic";

/** Server-Sent Events for every timeline event (`?sandbox={id}` narrows); Last-Event-ID resumes. */
export const GET = apiRoute(async (request: Request) => {
  const url = new URL(request.url);
  const lastEventId = request.headers.get("last-event-id") ?? url.searchParams.get("lastEventId") ?? undefined;
  if (lastEventId !== undefined && !/^\d{1,19}$/.test(lastEventId)) {
    throw new BadRequestError("invalid-last-event-id", "Last-Event-ID must be an event id this server sent (a number); reconnect without it to get live events only.");
  }
  const { store } = await getRuntime();
  const stream = timelineEventStream({ timeline: store.timeline, lastEventId, sandboxId: url.searchParams.get("sandbox") ?? undefined, signal: request.signal });
  return new Response(stream, {
    headers: { "Content-Type": "text/event-stream", "Cache-Control": "no-cache, no-transform", "X-Accel-Buffering": "no", Connection: "keep-alive" },
  });
});
