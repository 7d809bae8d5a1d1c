import type { SandboxRecord } from "@/lib/domain/sandbox-record.ts";
import type { SandboxUpdate } from "@/lib/domain/sandbox-update.ts";
import type { TimelineEvent } from "@/lib/domain/timeline.ts";
import { newestFirst, sandboxRow, type SandboxRow } from "../sandboxes/_components/sandbox-rows.ts";

// What the event stream pushes, applied to what the browser already holds: the live list's rows,
// a sandbox's record, its timeline. Pure (what was held + what was pushed → what to hold), so
// the live updates ask the server for nothing while the stream stays up. A push never replaces
// something newer (by updatedAt): a read of the list that finished after the push may hold a
// later state than the push did, and the push is applied again on top of it.

const newer = (held: { updatedAt: Date }, pushed: { updatedAt: Date }) => held.updatedAt.getTime() > pushed.updatedAt.getTime();

/** The live list with one sandbox as it now stands: its row replaced (unless newer), added where it sorts, or gone. */
export function rowsWith(rows: SandboxRow[] | undefined, update: SandboxUpdate): SandboxRow[] | undefined {
  if (!rows) return undefined;
  const held = rows.find((row) => row.id === update.id);
  if (held && update.record && newer(held, update.record)) return rows;
  const others = rows.filter((row) => row.id !== update.id);
  if (!update.record) return others;
  const row = sandboxRow(update.record);
  const at = others.findIndex((other) => newestFirst(row, other) < 0);
  return at === -1 ? [...others, row] : [...others.slice(0, at), row, ...others.slice(at)];
}

/** A held record replaced by the pushed one, unless it is newer; one no longer live is kept as it was, for its page to read afresh. */
export function recordWith(record: SandboxRecord | undefined, update: SandboxUpdate): SandboxRecord | undefined {
  if (!record || !update.record || newer(record, update.record)) return record;
  return update.record;
}

/** A held timeline with one more event, in id order, and only once (a replay may repeat one). */
export function timelineWith(timeline: TimelineEvent[] | undefined, event: TimelineEvent): TimelineEvent[] | undefined {
  if (!timeline) return undefined;
  if (timeline.some((held) => held.id === event.id)) return timeline;
  const id = BigInt(event.id);
  const at = timeline.findIndex((held) => BigInt(held.id) > id);
  return at === -1 ? [...timeline, event] : [...timeline.slice(0, at), event, ...timeline.slice(at)];
}
