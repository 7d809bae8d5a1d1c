import { checkpointOutcomeSchema, checkpointSchema, type Checkpoint, type CheckpointOutcome } from "../domain/checkpoint.ts";
import { type Db, Prisma } from "./prisma-client.ts";
import { fencedWrite, type WriterFence } from "./writer-term-repository.ts";

type CheckpointRow = Prisma.CheckpointGetPayload<object>;

const toCheckpoint = (row: CheckpointRow): Checkpoint => checkpointSchema.parse(row);

export function checkpointRepository(db: Db) {
  return {
    async startCheckpoint(request: { sandboxId: string; trigger: Checkpoint["trigger"]; startedAt: Date; podUid: string | null }): Promise<Checkpoint> {
      return toCheckpoint(await db.checkpoint.create({ data: request }));
    },

    async finishCheckpoint(id: string, outcome: CheckpointOutcome, finishedAt: Date): Promise<Checkpoint> {
      const valid = checkpointOutcomeSchema.parse(outcome);
      const started = await db.checkpoint.findUniqueOrThrow({ where: { id }, select: { startedAt: true } });
      const row = await db.checkpoint.update({
        where: { id },
        data: { ...valid, finishedAt, durationMs: Math.max(0, finishedAt.getTime() - started.startedAt.getTime()) },
      });
      return toCheckpoint(row);
    },

    async recordSnapshot(id: string, snapshot: { name: string; ready: boolean; error: string | null }): Promise<Checkpoint> {
      const row = await db.checkpoint.update({
        where: { id },
        data: { snapshotName: snapshot.name, snapshotReady: snapshot.ready, snapshotError: snapshot.error },
      });
      return toCheckpoint(row);
    },

    /**
     * Checkpoints left Running by a console that stopped mid-way — every Running one but those
     * of the sandboxes a replica is still checkpointing — are closed as Failed, saying so.
     * Returns them, for the timeline.
     */
    async failInterrupted(finishedAt: Date, stillRunningOn: ReadonlySet<string> = new Set(), fence?: WriterFence): Promise<Checkpoint[]> {
      const running = (await db.checkpoint.findMany({ where: { result: "Running" } })).filter((row) => !stillRunningOn.has(row.sandboxId));
      const closed: Checkpoint[] = [];
      for (const row of running) {
        const updated = await fencedWrite(db, fence, (client) => client.checkpoint.update({
          where: { id: row.id },
          data: { result: "Failed", finishedAt, durationMs: Math.max(0, finishedAt.getTime() - row.startedAt.getTime()), hookOutputTail: "interrupted: the console stopped while this checkpoint was running" },
        }));
        closed.push(toCheckpoint(updated));
      }
      return closed;
    },

    /** How every finished checkpoint ended, for the metrics. */
    async finishedOutcomes(): Promise<{ result: Checkpoint["result"]; durationMs: number | null }[]> {
      const rows = await db.checkpoint.findMany({ where: { result: { not: "Running" } }, select: { result: true, durationMs: true } });
      return rows.map((row) => ({ result: checkpointSchema.shape.result.parse(row.result), durationMs: row.durationMs }));
    },

    /** The sandbox's last successful checkpoint: the pod it ran in and when it finished; null when none has succeeded. */
    async lastSucceeded(sandboxId: string): Promise<{ podUid: string | null; finishedAt: Date } | null> {
      const row = await db.checkpoint.findFirst({ where: { sandboxId, result: "Succeeded", finishedAt: { not: null } }, orderBy: { finishedAt: "desc" }, select: { podUid: true, finishedAt: true } });
      return row ? { podUid: row.podUid, finishedAt: row.finishedAt! } : null;
    },

    /** Newest first. */
    async listCheckpoints(sandboxId: string, limit = 50): Promise<Checkpoint[]> {
      const rows = await db.checkpoint.findMany({ where: { sandboxId }, orderBy: { startedAt: "desc" }, take: limit });
      return rows.map(toCheckpoint);
    },
  };
}

export type CheckpointRepository = ReturnType<typeof checkpointRepository>;
