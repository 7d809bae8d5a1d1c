import type { NewTimelineEvent, TimelineEvent } from "../domain/timeline.ts";
import { logOf } from "../platform/logger.ts";
import type { TimelineRepository } from "../store/timeline-repository.ts";
import type { WriterFence } from "../store/writer-term-repository.ts";
import { feedFollowing, publishTimelineEvent } from "./event-bus.ts";
import { timelineLogEntry, type EventSubject } from "./timeline-log.ts";

export interface RecordOptions {
  /** The leader's term: the store refuses the write from a deposed leader. */
  fence?: WriterFence;
  /** The sandbox it is about, named in the server log. */
  about?: EventSubject;
}

/**
 * Stores a timeline event, the one way events enter the timeline, and returns once live
 * subscribers have it: from the feed when this process follows the store (it publishes what
 * every replica stores), else published here. It is logged here, by the one process that wrote
 * it, so a log pipeline sees each event once however many replicas serve it.
 */
export async function recordTimelineEvent(timeline: Pick<TimelineRepository, "appendEvent">, event: NewTimelineEvent, options: RecordOptions = {}): Promise<TimelineEvent> {
  const stored = await timeline.appendEvent(event, options.fence);
  const { level, entry } = timelineLogEntry(stored, options.about);
  logOf("timeline")[level](entry, "timeline event");
  const feed = feedFollowing(timeline);
  if (feed) await feed.publishedThrough(stored.id);
  else publishTimelineEvent(stored);
  return stored;
}
