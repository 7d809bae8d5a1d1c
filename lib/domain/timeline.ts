import { z } from "zod";

/** The kinds of things that happen to a sandbox, one swimlane marker or span each. */
export const TIMELINE_EVENT_TYPES = [
  "Lifecycle",
  "Disruption",
  "Recovery",
  "Checkpoint",
  /** The verdict on a replacement pod: did the workspace's durable state come back? */
  "DurableState",
  "Protection",
  "Maintenance",
  "KubernetesEvent",
] as const;
export const timelineEventTypeSchema = z.enum(TIMELINE_EVENT_TYPES);

export const newTimelineEventSchema = z.object({
  sandboxId: z.uuid().nullable(),
  type: timelineEventTypeSchema,
  /** CamelCase, as Kubernetes reasons are: PodEvicted, ReplacementScheduled, CheckpointSucceeded. */
  reason: z.string().regex(/^[A-Z][A-Za-z0-9]*$/, "reason must be CamelCase, such as PodEvicted"),
  message: z.string(),
  occurredAt: z.date(),
  data: z.record(z.string(), z.unknown()).default({}),
});
export type NewTimelineEvent = z.input<typeof newTimelineEventSchema>;

export const timelineEventSchema = newTimelineEventSchema.extend({
  /** Monotonic in commit order; a decimal string so it survives JSON and serves as an SSE id. */
  id: z.string().regex(/^\d+$/),
  recordedAt: z.date(),
});
export type TimelineEvent = z.infer<typeof timelineEventSchema>;
