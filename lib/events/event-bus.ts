import type { TimelineEvent } from "../domain/timeline.ts";
import { TimelineFeed, type TimelineFeedOptions, type TimelineSource } from "./timeline-feed.ts";
import { logOf } from "../platform/logger.ts";

// The process's live timeline: stored timeline events go to every live subscriber (SSE
// streams). A server follows its store with a TimelineFeed (followStoreTimeline), so every
// replica publishes every event, whoever stored it. A process that follows no store (a script, a
// test of one component) publishes what it stores itself (recordTimelineEvent).
// It lives on globalThis for the same reason the runtime does: Next.js may load this module
// more than once, and publisher and subscribers must meet.

type Listener = (event: TimelineEvent) => void;

const BUS = Symbol.for("berth.eventBus");
const PUBLISHED = Symbol.for("berth.eventBus.published");
const FEEDS = Symbol.for("berth.eventBus.feeds");
const holder = globalThis as { [BUS]?: Set<Listener>; [PUBLISHED]?: number; [FEEDS]?: WeakMap<object, TimelineFeed> };
const listeners: Set<Listener> = (holder[BUS] ??= new Set());
const feeds: WeakMap<object, TimelineFeed> = (holder[FEEDS] ??= new WeakMap());

export function publishTimelineEvent(event: TimelineEvent): void {
  holder[PUBLISHED] = publishedSoFar() + 1;
  for (const listener of listeners) {
    try {
      listener(event);
    } catch (error) {
      logOf("events").error({ err: error }, "an event subscriber failed");
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

/** Publishes every event the store holds from now on, whoever stores it, until stopped. */
export async function followStoreTimeline(timeline: TimelineSource, options: TimelineFeedOptions = {}): Promise<{ stop(): void }> {
  const feed = new TimelineFeed(timeline, options);
  feed.subscribe(publishTimelineEvent);
  await feed.start();
  feeds.set(timeline, feed);
  return {
    stop() {
      if (feeds.get(timeline) === feed) feeds.delete(timeline);
      feed.stop();
    },
  };
}

/** The feed that publishes this store's events, when this process follows it. */
export function feedFollowing(timeline: object): TimelineFeed | undefined {
  return feeds.get(timeline);
}
