import type { TimelineEvent } from "../domain/timeline.ts";
import type { TimelineRepository } from "../store/timeline-repository.ts";
import { subscribeToTimeline } from "./event-bus.ts";

// GET /api/v1/events as Server-Sent Events: every timeline event with its id, so that a client
// reconnecting with Last-Event-ID gets exactly what it missed (from the store) and then the live
// stream (from the bus) — nothing lost, nothing twice — and a heartbeat so proxies keep it open.

export interface SseOptions {
  timeline: Pick<TimelineRepository, "listAfter">;
  /** The last event id the client has (Last-Event-ID); undefined: live events only. */
  lastEventId?: string;
  sandboxId?: string;
  /** Whether the reader may see this event (the person's RBAC); every event when absent. */
  visible?: (event: TimelineEvent) => Promise<boolean>;
  signal: AbortSignal;
  heartbeatMs?: number;
}

const REPLAY_PAGE = 500;
const encoder = new TextEncoder();

export function formatSse(event: TimelineEvent): string {
  return `id: ${event.id}\nevent: timeline\ndata: ${JSON.stringify(event)}\n\n`;
}

const after = (a: string, b: string) => BigInt(a) > BigInt(b);

export function timelineEventStream(options: SseOptions): ReadableStream<Uint8Array> {
  let cleanup = () => {};
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          cleanup();
        }
      };
      const wanted = (event: TimelineEvent) => !options.sandboxId || event.sandboxId === options.sandboxId;
      const visible = options.visible ?? (async () => true);
      // Subscribe before replaying, and hold live events until the replay is done: an event
      // stored while replaying is then either in the replay or in the held ones, never lost.
      let last = options.lastEventId;
      let held: TimelineEvent[] | null = [];
      // Live events pass the visibility check one after another, so they leave in commit order.
      let sending = Promise.resolve();
      const sendLive = (event: TimelineEvent) => {
        sending = sending.then(async () => {
          if ((last === undefined || after(event.id, last)) && (await visible(event).catch(() => false))) {
            last = event.id;
            send(formatSse(event));
          }
        });
      };
      const unsubscribe = subscribeToTimeline((event) => {
        if (!wanted(event)) return;
        if (held) held.push(event);
        else sendLive(event);
      });
      const heartbeat = setInterval(() => send(`: heartbeat ${new Date().toISOString()}\n\n`), options.heartbeatMs ?? 15_000);
      cleanup = () => {
        unsubscribe();
        clearInterval(heartbeat);
      };
      options.signal.addEventListener("abort", () => {
        cleanup();
        try {
          controller.close();
        } catch {
          // Already closed.
        }
      });
      send(`retry: 2000\n\n`);
      if (options.lastEventId !== undefined) {
        for (;;) {
          const page = await options.timeline.listAfter({ after: last, sandboxId: options.sandboxId, limit: REPLAY_PAGE });
          for (const event of page) {
            last = event.id;
            if (await visible(event).catch(() => false)) send(formatSse(event));
          }
          if (page.length < REPLAY_PAGE) break;
        }
      }
      const pending = held;
      held = null;
      for (const event of pending) sendLive(event);
    },
    cancel() {
      cleanup();
    },
  });
}
