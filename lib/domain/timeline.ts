import { z } from "zod";
import { instantSchema } from "./instant.ts";
import { checkpointTriggerSchema } from "./checkpoint.ts";
import { disruptionRecordSchema, recoveryRecordSchema } from "./disruption-history.ts";
import { durableStateSchema } from "./durable-state.ts";

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
export type TimelineEventType = z.infer<typeof timelineEventTypeSchema>;

// Each type of event carries its own data. The facts readers use are typed here, once; each is
// read on its own, so a fact that no longer fits (an older Berth wrote it) reads as absent
// instead of making the event unreadable, and facts no reader types (a sweep's claim names, a
// run's progress) are kept as they were written, for the API's readers.

const fact = <T extends z.ZodType>(schema: T) => schema.nullish().catch(null);

/** Where a change of phase happened: the phase it moved to and from, in which pod, on which node. */
const podFacts = {
  phase: fact(z.string()),
  reason: fact(z.string()),
  previousPhase: fact(z.string()),
  podUid: fact(z.string()),
  nodeName: fact(z.string()),
};

/** A disruption or recovery step: the pod facts, and the disruption and its recovery as they stood. */
const historyFacts = { ...podFacts, disruption: fact(disruptionRecordSchema), recovery: fact(recoveryRecordSchema) };

export const TIMELINE_EVENT_DATA = {
  Lifecycle: z.looseObject(podFacts).default({}),
  Disruption: z.looseObject(historyFacts).default({}),
  Recovery: z.looseObject(historyFacts).default({}),
  Checkpoint: z.looseObject({ checkpointId: fact(z.string()), trigger: fact(checkpointTriggerSchema), graceSeconds: fact(z.number()) }).default({}),
  DurableState: z
    .looseObject({
      verdict: fact(durableStateSchema.shape.verdict),
      why: fact(z.string()),
      podUid: fact(z.string()),
      checkedAt: fact(z.iso.datetime()),
      neverSurvives: fact(z.array(z.string())),
      nodeName: fact(z.string()),
    })
    .default({}),
  Protection: z.looseObject({ budgetName: fact(z.string()), nodeName: fact(z.string()) }).default({}),
  /** A run's step: on the node's timeline (no sandbox) or on the sandbox's. */
  Maintenance: z.looseObject({ node: fact(z.string()), runId: fact(z.string()), step: fact(z.string()), checkpointId: fact(z.string()) }).default({}),
  KubernetesEvent: z.looseObject({}).default({}),
} as const satisfies Record<TimelineEventType, z.ZodType>;

const sandboxIdField = z.uuid().nullable();
/** What an event says happened; it is sent after the sandbox and the type, as it always was. */
const describedFields = {
  /** CamelCase, as Kubernetes reasons are: PodEvicted, ReplacementScheduled, CheckpointSucceeded. */
  reason: z.string().regex(/^[A-Z][A-Za-z0-9]*$/, "reason must be CamelCase, such as PodEvicted"),
  message: z.string(),
  occurredAt: instantSchema,
};

/** The fields a stored event has besides what was appended. */
export const storedEventFields = {
  /** Monotonic in commit order; a decimal string so it survives JSON and serves as an SSE id. */
  id: z.string().regex(/^\d+$/),
  recordedAt: instantSchema,
};

/** One event of each type, with `extra` fields added or replaced (the stored ones; dates as the wire sends them). */
export function timelineEventSchemaWith<Extra extends z.ZodRawShape>(extra: Extra) {
  const of = <T extends TimelineEventType>(type: T) => z.object({ sandboxId: sandboxIdField, type: z.literal(type), ...describedFields, data: TIMELINE_EVENT_DATA[type], ...extra });
  return z.discriminatedUnion("type", [
    of("Lifecycle"),
    of("Disruption"),
    of("Recovery"),
    of("Checkpoint"),
    of("DurableState"),
    of("Protection"),
    of("Maintenance"),
    of("KubernetesEvent"),
  ]);
}

export const newTimelineEventSchema = timelineEventSchemaWith({});
export type NewTimelineEvent = z.input<typeof newTimelineEventSchema>;

export const timelineEventSchema = timelineEventSchemaWith(storedEventFields);
export type TimelineEvent = z.infer<typeof timelineEventSchema>;
