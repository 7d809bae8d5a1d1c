import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { SqlSession } from "./sql-session.ts";

// Applies the committed prisma/migrations/*/migration.sql at start-up without Prisma's native
// schema engine (which cannot be downloaded offline). It keeps `_prisma_migrations` exactly as
// Prisma does, so `prisma migrate deploy` accepts a database migrated here, and vice versa.

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrationReport {
  applied: string[];
  alreadyApplied: string[];
  /** Applied migrations whose file changed since: reported, never re-run. */
  changed: string[];
  /** Rows for migrations this build does not have (a newer Berth ran here before). */
  unknown: string[];
}

export class MigrationError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "MigrationError";
  }
}

// Prisma's own DDL for its bookkeeping table.
const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
);`;

// One constant key so that several servers starting against one PostgreSQL migrate in turn.
const MIGRATION_LOCK_KEY = 72_417_002;

interface MigrationRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

// Resolved at run time from the working directory; the bundler must not trace it.
export const DEFAULT_MIGRATIONS_DIR = path.join(/* turbopackIgnore: true */ process.cwd(), "prisma", "migrations");

export async function readMigrations(dir = DEFAULT_MIGRATIONS_DIR): Promise<Migration[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    }),
  );
}

/**
 * Brings the database up to date. Each migration runs in its own transaction together with
 * its bookkeeping row, so a failing migration leaves no partial change and nothing recorded:
 * fix it and start again.
 */
export async function migrate(session: SqlSession, migrations: Migration[]): Promise<MigrationReport> {
  await session.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
  try {
    await session.exec(CREATE_MIGRATIONS_TABLE);
    const rows = await session.query<MigrationRow>(
      `SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at`,
    );
    const failed = rows.find((row) => row.finished_at === null && row.rolled_back_at === null);
    if (failed) {
      throw new MigrationError(
        `Migration ${failed.migration_name} failed earlier and was never resolved, so Berth will not ` +
          `touch this database. Repair it by hand, then mark it with ` +
          `\`prisma migrate resolve --applied ${failed.migration_name}\` or \`--rolled-back\`.`,
      );
    }
    const done = new Map(
      rows.filter((row) => row.finished_at !== null && row.rolled_back_at === null).map((row) => [row.migration_name, row]),
    );
    const report: MigrationReport = { applied: [], alreadyApplied: [], changed: [], unknown: [] };
    const known = new Set(migrations.map((migration) => migration.name));
    report.unknown = [...done.keys()].filter((name) => !known.has(name));

    for (const migration of migrations) {
      const row = done.get(migration.name);
      if (row) {
        report.alreadyApplied.push(migration.name);
        if (row.checksum !== migration.checksum) report.changed.push(migration.name);
        continue;
      }
      await applyOne(session, migration);
      report.applied.push(migration.name);
    }
    return report;
  } finally {
    await session.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
  }
}

async function applyOne(session: SqlSession, migration: Migration): Promise<void> {
  await session.exec("BEGIN");
  try {
    await session.exec(migration.sql);
    await session.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count)
       VALUES ($1, $2, now(), $3, 1)`,
      [randomUUID(), migration.checksum, migration.name],
    );
    await session.exec("COMMIT");
  } catch (error) {
    await session.exec("ROLLBACK");
    throw new MigrationError(
      `Migration ${migration.name} failed and was rolled back; the database is as it was before it. ` +
        `Cause: ${(error as Error).message}`,
      { cause: error },
    );
  }
}
