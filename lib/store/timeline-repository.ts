import { newTimelineEventSchema, TIMELINE_EVENT_DATA, timelineEventSchema, type NewTimelineEvent, type TimelineEvent } from "../domain/timeline.ts";
import { type Db, toJson, Prisma } from "./prisma-client.ts";
import { STORE_CHANNELS, type NotifiedListener, type StoreNotifications } from "./store-notifications.ts";
import { checkFence, type WriterFence } from "./writer-term-repository.ts";

// Readers resume from "the last id I saw" (SSE Last-Event-ID). That is only safe if ids become
// visible in increasing order; a sequence alone does not promise it with concurrent writers
// (id 7 can commit before id 6). Taking one advisory lock per append transaction makes commit
// order equal id order. So a reader that has every event up to id N needs only "after N" to
// catch up, whichever process appended; `onAppended` tells it when to look.
const APPEND_LOCK_KEY = 72_417_001;

type TimelineRow = Prisma.TimelineEventGetPayload<object>;

function toEvent(row: TimelineRow): TimelineEvent {
  return timelineEventSchema.parse({ ...row, id: row.id.toString() });
}

const afterId = (id: string | undefined) => (id === undefined ? undefined : { gt: BigInt(id) });

export function timelineRepository(db: Db, notifications: StoreNotifications) {
  return {
    /** Appends the event; with a fence, only while its term is the writer's (DeposedWriterError otherwise). */
    async appendEvent(event: NewTimelineEvent, fence?: WriterFence): Promise<TimelineEvent> {
      const valid = newTimelineEventSchema.parse(event);
      const row = await db.$transaction(async (tx) => {
        await checkFence(tx, fence);
        // Only PostgreSQL runs transactions side by side, and only it has other processes to
        // tell: the embedded store (one process's) runs one transaction at a time.
        if (notifications.crossProcess) await tx.$queryRaw`SELECT 1 FROM pg_advisory_xact_lock(${APPEND_LOCK_KEY})`;
        const created = await tx.timelineEvent.create({ data: { ...valid, data: toJson(valid.data) } });
        // Sent at commit, in commit order, to every process listening (other replicas).
        if (notifications.crossProcess) await tx.$queryRaw`SELECT 1 FROM pg_notify(${STORE_CHANNELS.timelineAppended}, ${created.id.toString()})`;
        return created;
      });
      const stored = toEvent(row);
      notifications.committed("timelineAppended", stored.id);
      return stored;
    },

    /** Told of each append, this process's and (with PostgreSQL) every other's: an id, or null for "look". */
    onAppended(listener: NotifiedListener): () => void {
      return notifications.subscribe("timelineAppended", listener);
    },

    /** A sandbox's timeline, oldest first, optionally after a given event id. */
    /**
     * Every disruption the timeline recorded, once each (a disruption is told by several events:
     * disrupted, recovering, recovered), with its recovery's duration once it recovered.
     */
    async disruptionHistory(): Promise<{ sandboxId: string; reason: string; at: string; durationMs: number | null }[]> {
      const rows = await db.timelineEvent.findMany({ where: { type: { in: ["Disruption", "Recovery"] } }, select: { sandboxId: true, data: true }, orderBy: { id: "asc" } });
      const seen = new Map<string, { sandboxId: string; reason: string; at: string; durationMs: number | null }>();
      for (const row of rows) {
        const data = TIMELINE_EVENT_DATA.Disruption.parse(row.data);
        if (!row.sandboxId || !data.disruption) continue;
        const key = `${row.sandboxId}/${data.disruption.at}`;
        const entry = seen.get(key) ?? { sandboxId: row.sandboxId, reason: data.disruption.reason, at: data.disruption.at, durationMs: null };
        entry.reason = data.disruption.reason;
        if (data.recovery?.reason === "Recovered" && data.recovery.durationMs !== null) entry.durationMs = data.recovery.durationMs;
        seen.set(key, entry);
      }
      return [...seen.values()];
    },

    async listForSandbox(sandboxId: string, request: { after?: string; limit: number }): Promise<TimelineEvent[]> {
      const rows = await db.timelineEvent.findMany({
        where: { sandboxId, id: afterId(request.after) },
        orderBy: { id: "asc" },
        take: request.limit,
      });
      return rows.map(toEvent);
    },

    /** A sandbox's whole timeline, oldest first, read a page (a thousand events) at a time. */
    async listAllForSandbox(sandboxId: string, pageSize = 1000): Promise<TimelineEvent[]> {
      const events: TimelineEvent[] = [];
      let after: string | undefined;
      for (;;) {
        const rows = await db.timelineEvent.findMany({ where: { sandboxId, id: afterId(after) }, orderBy: { id: "asc" }, take: pageSize });
        events.push(...rows.map(toEvent));
        if (rows.length < pageSize) return events;
        after = events.at(-1)!.id;
      }
    },

    /** How many events were recorded after an event id, counted up to `limit`: how far behind a reader is. */
    async countAfter(request: { after: string; sandboxId?: string; limit: number }): Promise<number> {
      return db.timelineEvent.count({ where: { id: afterId(request.after), ...(request.sandboxId ? { sandboxId: request.sandboxId } : {}) }, take: request.limit });
    },

    /** The id of the newest event, or null before the first. */
    async newestId(): Promise<string | null> {
      const row = await db.timelineEvent.findFirst({ orderBy: { id: "desc" }, select: { id: true } });
      return row ? row.id.toString() : null;
    },

    /** Everything recorded after an event id, oldest first: what an SSE client missed. */
    async listAfter(request: { after?: string; sandboxId?: string; limit: number }): Promise<TimelineEvent[]> {
      const rows = await db.timelineEvent.findMany({
        where: { id: afterId(request.after), ...(request.sandboxId ? { sandboxId: request.sandboxId } : {}) },
        orderBy: { id: "asc" },
        take: request.limit,
      });
      return rows.map(toEvent);
    },
  };
}

export type TimelineRepository = ReturnType<typeof timelineRepository>;
