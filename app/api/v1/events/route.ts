import { isSerialId } from "@/lib/domain/event-id.ts";
import { timelineEventStream } from "@/lib/events/sse-stream.ts";
import { BadRequestError } from "@/lib/server/api-problems.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { timelineEventVisibility } from "@/lib/server/visibility.ts";

export const dynamic = "force-dynamic";

/**
 * Server-Sent Events for every timeline event the caller may see (`?sandbox={id}` narrows), each
 * live one about a sandbox after a `sandbox` message with that sandbox as it now stands:
 * a sandbox's events to those who may list sandboxes in its namespace, a maintenance run's to
 * those who may read maintenance runs. Last-Event-ID resumes (or, far behind, says `reload`).
 * A person may hold a few streams at once (limits.streamsPerPerson); one more is 429.
 */
export const GET = endpointRoute("events", async ({ request, runtime, caller, query }) => {
  const lastEventId = request.headers.get("last-event-id") ?? query.lastEventId;
  if (lastEventId !== undefined && lastEventId !== null && !isSerialId(lastEventId)) {
    throw new BadRequestError("invalid-last-event-id", "Last-Event-ID must be an event id this server sent (a number); reconnect without it to get live events only.", ["Last-Event-ID"]);
  }
  const visible = timelineEventVisibility(runtime, caller.person);
  const closed = runtime.rateLimits.openStream(caller.person.username);
  const { live } = runtime;
  const sandboxNow = (id: string) => (live.ready ? (live.wire(id) ?? null) : undefined);
  const stream = timelineEventStream({ timeline: runtime.store.timeline, lastEventId: lastEventId ?? undefined, sandboxId: query.sandbox, visible, sandboxNow, signal: request.signal, onClose: closed });
  return new Response(stream, {
    headers: { "Content-Type": "text/event-stream", "Cache-Control": "no-cache, no-transform", "X-Accel-Buffering": "no", Connection: "keep-alive" },
  });
});
