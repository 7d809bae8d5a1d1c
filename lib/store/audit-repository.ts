import { auditEntrySchema, newAuditEntrySchema, type AuditEntry, type AuditQuery, type NewAuditEntry } from "../domain/audit.ts";
import { isSerialId } from "../domain/event-id.ts";
import type { Page } from "../domain/sandbox-record.ts";
import { decodeCursor, encodeCursor } from "./cursor.ts";
import { type Db, type Tx, toJson, Prisma } from "./prisma-client.ts";

type AuditRow = Prisma.AuditEntryGetPayload<object>;

const toEntry = (row: AuditRow): AuditEntry => auditEntrySchema.parse({ ...row, id: row.id.toString() });

/** Writes one audit entry with whichever client is at hand (also inside a transaction). */
export async function writeAuditEntry(db: Db | Tx, entry: NewAuditEntry): Promise<AuditEntry> {
  const { actor, ...valid } = newAuditEntrySchema.parse(entry);
  return toEntry(
    await db.auditEntry.create({ data: { ...valid, actor: actor.username, actorGroups: actor.groups, requestId: actor.requestId, details: toJson(valid.details) } }),
  );
}

export function auditRepository(db: Db) {
  return {
    recordChange: (entry: NewAuditEntry) => writeAuditEntry(db, entry),

    /** Newest first, narrowed by whichever filters are given. */
    async listChanges(request: { limit: number; cursor?: string } & Omit<AuditQuery, "limit" | "cursor">): Promise<Page<AuditEntry>> {
      const rows = await db.auditEntry.findMany({
        where: {
          ...(request.targetKind ? { targetKind: request.targetKind } : {}),
          ...(request.targetId ? { targetId: request.targetId } : {}),
          ...(request.actor ? { actor: request.actor } : {}),
          ...(request.action ? { action: request.action } : {}),
          ...(request.outcome ? { outcome: request.outcome } : {}),
          ...(request.decision ? { decision: request.decision } : {}),
          ...(request.since ? { at: { gte: new Date(request.since) } } : {}),
          ...(request.cursor ? { id: { lt: BigInt(decodeCursor(request.cursor, isSerialId)) } } : {}),
        },
        orderBy: { id: "desc" },
        take: request.limit + 1,
      });
      const items = rows.slice(0, request.limit).map(toEntry);
      return { items, nextCursor: rows.length > request.limit ? encodeCursor(items[items.length - 1]!.id) : null };
    },
  };
}

export type AuditRepository = ReturnType<typeof auditRepository>;
