import type { Db, Tx } from "./prisma-client.ts";

// Fencing for the one writer among Berth's replicas. A leader claims its term (the Lease's
// transitions when it took it) before it writes, and each write of derived state carries
// {lease, term}: the store refuses it, in the write's own transaction, unless that term is still
// the newest claimed. A leader that paused past its lease and woke up deposed cannot write twice.

export interface WriterFence {
  /** The Lease's name. */
  lease: string;
  term: number;
}

export class DeposedWriterError extends Error {
  constructor(
    readonly fence: WriterFence,
    readonly current: number | null,
  ) {
    super(`a write under term ${fence.term} of ${fence.lease} was refused: term ${current ?? "none"} is the writer's now`);
    this.name = "DeposedWriterError";
  }
}

/** Throws DeposedWriterError unless the fence's term is the newest claimed; holds it until `tx` ends. */
export async function checkFence(tx: Tx, fence: WriterFence | undefined): Promise<void> {
  if (!fence) return;
  const rows = await tx.$queryRaw<{ term: number }[]>`SELECT "term" FROM "WriterTerm" WHERE "name" = ${fence.lease} FOR SHARE`;
  const current = rows[0]?.term ?? null;
  if (current !== fence.term) throw new DeposedWriterError(fence, current);
}

/** Runs `write` as it is, or — with a fence — in a transaction that checks the fence and holds it until the write commits. */
export function fencedWrite<T>(db: Db, fence: WriterFence | undefined, write: (client: Db | Tx) => Promise<T>): Promise<T> {
  if (!fence) return write(db);
  return db.$transaction(async (tx) => {
    await checkFence(tx, fence);
    return write(tx);
  });
}

export function writerTermRepository(db: Db) {
  return {
    /** Claims the term for `holder`: true unless a newer term was claimed already. */
    async claim(fence: WriterFence, holder: string, now: Date): Promise<boolean> {
      const rows = await db.$queryRaw<{ term: number; holder: string }[]>`
        INSERT INTO "WriterTerm" ("name", "term", "holder", "claimedAt") VALUES (${fence.lease}, ${fence.term}, ${holder}, ${now})
        ON CONFLICT ("name") DO UPDATE SET "term" = EXCLUDED."term", "holder" = EXCLUDED."holder", "claimedAt" = EXCLUDED."claimedAt"
          WHERE "WriterTerm"."term" < EXCLUDED."term" OR ("WriterTerm"."term" = EXCLUDED."term" AND "WriterTerm"."holder" = EXCLUDED."holder")
        RETURNING "term", "holder"`;
      return rows.length > 0;
    },
  };
}

export type WriterTermRepository = ReturnType<typeof writerTermRepository>;
