import type { NewTimelineEvent, TimelineEvent } from "../domain/timeline.ts";
import type { TimelineRepository } from "../store/timeline-repository.ts";
import type { WriterFence } from "../store/writer-term-repository.ts";
import { feedFollowing, publishTimelineEvent } from "./event-bus.ts";

/**
 * Stores a timeline event, the one way events enter the timeline, and returns once live
 * subscribers have it: from the feed when this process follows the store (it publishes what
 * every replica stores), else published here.
 */
export async function recordTimelineEvent(timeline: Pick<TimelineRepository, "appendEvent">, event: NewTimelineEvent, fence?: WriterFence): Promise<TimelineEvent> {
  const stored = await timeline.appendEvent(event, fence);
  const feed = feedFollowing(timeline);
  if (feed) await feed.publishedThrough(stored.id);
  else publishTimelineEvent(stored);
  return stored;
}
