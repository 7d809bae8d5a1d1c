import type { NewTimelineEvent, TimelineEvent } from "../domain/timeline.ts";
import type { TimelineRepository } from "../store/timeline-repository.ts";
import { publishTimelineEvent } from "./event-bus.ts";

/** Stores a timeline event, then tells live subscribers: the one way events enter the timeline. */
export async function recordTimelineEvent(timeline: Pick<TimelineRepository, "appendEvent">, event: NewTimelineEvent): Promise<TimelineEvent> {
  const stored = await timeline.appendEvent(event);
  publishTimelineEvent(stored);
  return stored;
}
