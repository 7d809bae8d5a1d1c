import type { Db } from "./prisma-client.ts";

// One-time codes that are sealed, not stored (berth login's loopback code): a code's id is
// written here when it is used, so it is used once across every replica. Rows are forgotten once
// the code would have expired anyway.

export function spentCodeRepository(db: Db) {
  return {
    /** Spends the code: true the first time, false ever after (until it has expired). */
    async spend(id: string, expiresAt: Date, now = new Date()): Promise<boolean> {
      await db.spentCode.deleteMany({ where: { expiresAt: { lt: now } } });
      const rows = await db.$queryRaw<{ id: string }[]>`
        INSERT INTO "SpentCode" ("id", "expiresAt") VALUES (${id}, ${expiresAt}) ON CONFLICT ("id") DO NOTHING RETURNING "id"`;
      return rows.length === 1;
    },
  };
}
