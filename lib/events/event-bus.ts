import type { TimelineEvent } from "../domain/timeline.ts";

// The in-process bus: timeline events, once stored, go to every live subscriber (SSE streams).
// It lives on globalThis for the same reason the runtime does: Next.js may load this module
// more than once, and publisher and subscribers must meet.

type Listener = (event: TimelineEvent) => void;

const BUS = Symbol.for("berth.eventBus");
const PUBLISHED = Symbol.for("berth.eventBus.published");
const holder = globalThis as { [BUS]?: Set<Listener>; [PUBLISHED]?: number };
const listeners: Set<Listener> = (holder[BUS] ??= new Set());

export function publishTimelineEvent(event: TimelineEvent): void {
  holder[PUBLISHED] = publishedSoFar() + 1;
  for (const listener of listeners) {
    try {
      listener(event);
    } catch (error) {
      console.error("berth: an event subscriber failed", error);
    }
  }
}

export function subscribeToTimeline(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** How many events this process has published: while it stays the same, no event was stored since (every event is published once stored). */
export function publishedSoFar(): number {
  return holder[PUBLISHED] ?? 0;
}
