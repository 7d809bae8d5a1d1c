import { createHash } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { migrate, MigrationError, readMigrations, type Migration } from "./migrator.ts";
import type { SqlSession } from "./sql-session.ts";
import { openTestSession } from "./test-databases.ts";

function aMigration(name: string, sql: string): Migration {
  return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
}

const createWidgets = aMigration("20260101000000_widgets", `CREATE TABLE widgets (id INT PRIMARY KEY);`);
const createGadgets = aMigration("20260102000000_gadgets", `CREATE TABLE gadgets (id INT PRIMARY KEY);`);

async function tables(session: SqlSession): Promise<string[]> {
  const rows = await session.query<{ tablename: string }>(
    `SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename`,
  );
  return rows.map((row) => row.tablename);
}

let session: SqlSession;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ session, cleanup } = await openTestSession());
});
afterEach(async () => {
  await cleanup();
});

describe("migrate", () => {
  it("applies every migration to an empty database", async () => {
    const report = await migrate(session, [createWidgets, createGadgets]);
    expect(report.applied).toEqual([createWidgets.name, createGadgets.name]);
    expect(await tables(session)).toEqual(["_prisma_migrations", "gadgets", "widgets"]);
  });

  it("records each migration as Prisma does, with its sha256 checksum", async () => {
    await migrate(session, [createWidgets]);
    const [row] = await session.query<{ migration_name: string; checksum: string; applied_steps_count: number; finished_at: Date | null }>(
      `SELECT migration_name, checksum, applied_steps_count, finished_at FROM "_prisma_migrations"`,
    );
    expect(row).toMatchObject({ migration_name: createWidgets.name, checksum: createWidgets.checksum, applied_steps_count: 1 });
    expect(row!.finished_at).not.toBeNull();
  });

  it("skips migrations that were applied before", async () => {
    await migrate(session, [createWidgets]);
    const report = await migrate(session, [createWidgets, createGadgets]);
    expect(report).toMatchObject({ applied: [createGadgets.name], alreadyApplied: [createWidgets.name] });
  });

  it("leaves no partial change when a migration fails", async () => {
    const broken = aMigration("20260103000000_broken", `CREATE TABLE half (id INT); SELECT * FROM no_such_table;`);
    await expect(migrate(session, [createWidgets, broken])).rejects.toThrow(MigrationError);
    expect(await tables(session)).toEqual(["_prisma_migrations", "widgets"]);
  });

  it("does not record a migration that failed, so a fixed one runs next time", async () => {
    const broken = aMigration("20260103000000_fix_me", `SELECT * FROM no_such_table;`);
    await expect(migrate(session, [broken])).rejects.toThrow(/rolled back/);
    const rows = await session.query(`SELECT 1 FROM "_prisma_migrations" WHERE migration_name = $1`, [broken.name]);
    expect(rows).toHaveLength(0);
  });

  it("refuses a database where Prisma recorded a failed migration", async () => {
    await migrate(session, []);
    await session.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name) VALUES ('x', 'y', '20250101000000_failed')`,
    );
    await expect(migrate(session, [createWidgets])).rejects.toThrow(/20250101000000_failed failed earlier/);
  });

  it("reports an applied migration whose file has changed since, without running it again", async () => {
    await migrate(session, [createWidgets]);
    const edited = aMigration(createWidgets.name, createWidgets.sql + "\n-- edited");
    const report = await migrate(session, [edited]);
    expect(report.changed).toEqual([createWidgets.name]);
  });

  it("reports migrations in the database that this build does not know", async () => {
    await migrate(session, [createWidgets, createGadgets]);
    const report = await migrate(session, [createWidgets]);
    expect(report.unknown).toEqual([createGadgets.name]);
  });
});

describe("the committed migrations", () => {
  it("apply cleanly to an empty database", async () => {
    const report = await migrate(session, await readMigrations());
    expect(report.applied.length).toBeGreaterThan(0);
    expect(await tables(session)).toContain("Sandbox");
  });
});
