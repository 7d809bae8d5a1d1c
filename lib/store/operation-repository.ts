import { z } from "zod";
import type { Db } from "./prisma-client.ts";
import { STORE_CHANNELS, type NotifiedListener, type StoreNotifications } from "./store-notifications.ts";

// Operations Berth replicas are running on sandboxes (creates, deletes, checkpoints), for every replica
// to see. A replica registers an operation before it starts, renews it while it runs, and
// removes it when it ends (which every replica is told of). One whose replica stopped renewing it
// — the replica died — counts as not in flight: it was interrupted, and what it was on is
// anyone's to look at again.

export const operationKindSchema = z.enum(["lifecycle", "checkpoint"]);
export type OperationKind = z.infer<typeof operationKindSchema>;

export interface RunningOperation {
  targetId: string;
  kind: OperationKind;
  replica: string;
  startedAt: Date;
  renewedAt: Date;
}

export class OperationInFlightError extends Error {
  constructor(readonly operation: RunningOperation) {
    super(`a ${operation.kind} operation on ${operation.targetId} is already running in replica ${operation.replica} (since ${operation.startedAt.toISOString()})`);
    this.name = "OperationInFlightError";
  }
}

const rowSchema = z.object({ targetId: z.string(), kind: operationKindSchema, replica: z.string(), startedAt: z.date(), renewedAt: z.date() });

export function operationRepository(db: Db, notifications: StoreNotifications) {
  return {
    /**
     * Registers an operation, taking over one whose replica stopped renewing it before
     * `staleBefore`; OperationInFlightError when another is still running.
     */
    async begin(operation: { targetId: string; kind: OperationKind; replica: string }, now: Date, staleBefore: Date): Promise<void> {
      const taken = await db.$queryRaw<unknown[]>`
        INSERT INTO "Operation" ("targetId", "kind", "replica", "startedAt", "renewedAt")
        VALUES (${operation.targetId}::uuid, ${operation.kind}, ${operation.replica}, ${now}, ${now})
        ON CONFLICT ("targetId", "kind") DO UPDATE
          SET "replica" = EXCLUDED."replica", "startedAt" = EXCLUDED."startedAt", "renewedAt" = EXCLUDED."renewedAt"
          WHERE "Operation"."renewedAt" < ${staleBefore}
        RETURNING "targetId"`;
      if (taken.length > 0) return;
      const running = await db.operation.findUnique({ where: { targetId_kind: { targetId: operation.targetId, kind: operation.kind } } });
      if (!running) return this.begin(operation, now, staleBefore);
      throw new OperationInFlightError(rowSchema.parse(running));
    },

    /** Marks this replica's operations as still running. */
    async renew(replica: string, now: Date): Promise<void> {
      await db.operation.updateMany({ where: { replica }, data: { renewedAt: now } });
    },

    /** Removes the operation, if it is still this replica's, and tells every replica it ended. */
    async end(operation: { targetId: string; kind: OperationKind; replica: string }): Promise<void> {
      await db.$transaction(async (tx) => {
        await tx.operation.deleteMany({ where: operation });
        await tx.$queryRaw`SELECT 1 FROM pg_notify(${STORE_CHANNELS.operationSettled}, ${operation.targetId})`;
      });
      notifications.committed("operationSettled", operation.targetId);
    },

    /** The operation of that kind running on the target in any replica, renewed since `freshSince`; null when none is. */
    async inFlight(targetId: string, kind: OperationKind, freshSince: Date): Promise<RunningOperation | null> {
      const row = await db.operation.findFirst({ where: { targetId, kind, renewedAt: { gte: freshSince } } });
      return row ? rowSchema.parse(row) : null;
    },

    /** Every operation of that kind still running in some replica. */
    async allInFlight(kind: OperationKind, freshSince: Date): Promise<RunningOperation[]> {
      return (await db.operation.findMany({ where: { kind, renewedAt: { gte: freshSince } } })).map((row) => rowSchema.parse(row));
    },

    /** Told the target's id when an operation on it ends, in this replica or (with PostgreSQL) any other. */
    onSettled(listener: NotifiedListener): () => void {
      return notifications.subscribe("operationSettled", listener);
    },
  };
}

export type OperationRepository = ReturnType<typeof operationRepository>;
