// Test support: a fresh, empty database of the kind under test. Store tests run on PGlite by
// default and on PostgreSQL when BERTH_TEST_DATABASE_URL names a server whose role may create
// databases (CI runs them both ways). Each call gets a database of its own.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { openStore, type Store, type StoreKind } from "./open-store.ts";
import { pgliteSession, pgSession, type SqlSession } from "./sql-session.ts";

export const testStoreKind: StoreKind = process.env.BERTH_TEST_DATABASE_URL ? "postgresql" : "pglite";

export async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = process.env.BERTH_TEST_DATABASE_URL!;
  const name = `berth_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        // FORCE ends the database's connections, but a role without pg_signal_backend may not end
        // an autovacuum worker's that happens to be there: that one is gone a moment later.
        for (let attempt = 1; ; attempt++) {
          try {
            await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
            return;
          } catch (error) {
            if (attempt >= 20 || !/pg_signal_backend/.test((error as Error).message)) throw error;
            await new Promise((resolve) => setTimeout(resolve, 250));
          }
        }
      } finally {
        await client.end();
      }
    },
  };
}

export interface TestStore {
  store: Store;
  /**
   * Another store on the same database, as another replica opens it (PostgreSQL only: the
   * embedded store is one process's); closed by cleanup.
   */
  openReplica?: () => Promise<Store>;
  /** The database's address (PostgreSQL only). */
  databaseUrl?: string;
  cleanup: () => Promise<void>;
}

/** A migrated store on a new database. */
export async function openTestStore(): Promise<TestStore> {
  if (testStoreKind === "postgresql") {
    const database = await createPostgresDatabase();
    const store = await openStore({ kind: "postgresql", databaseUrl: database.url });
    const replicas: Store[] = [];
    return {
      store,
      databaseUrl: database.url,
      async openReplica() {
        const replica = await openStore({ kind: "postgresql", databaseUrl: database.url });
        replicas.push(replica);
        return replica;
      },
      cleanup: async () => {
        await Promise.all([store, ...replicas].map((one) => one.close()));
        await database.drop();
      },
    };
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), "berth-store-test-"));
  const store = await openStore({ kind: "pglite", dataDir });
  return { store, cleanup: async () => { await store.close(); rmSync(dataDir, { recursive: true, force: true }); } };
}

/**
 * The database under test for this file's tests: opened before them, cleaned up after them.
 * Read its `store` (and `openReplica`) inside tests and hooks, once it is open.
 */
export function useTestStore(): TestStore {
  const current = {} as TestStore;
  beforeAll(async () => void Object.assign(current, await openTestStore()));
  afterAll(() => current.cleanup?.());
  return current;
}

// Creating a database is slow on PGlite (an initdb each time, seconds), so migrator tests share
// one database per test file and get an empty schema of their own on it instead.
let shared: Promise<{ session: SqlSession; close: () => Promise<void> }> | undefined;

async function openSharedSession() {
  if (testStoreKind === "postgresql") {
    const database = await createPostgresDatabase();
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    return { session: pgSession(client), close: async () => { await client.end(); await database.drop(); } };
  }
  const db = await PGlite.create();
  return { session: pgliteSession(db), close: () => db.close() };
}

afterAll(async () => {
  await (await shared)?.close();
  shared = undefined;
});

/** A raw session whose search path is a new, empty schema, for testing the migrator itself. */
export async function openTestSession(): Promise<{ session: SqlSession; cleanup: () => Promise<void> }> {
  shared ??= openSharedSession();
  const { session } = await shared;
  const schema = `test_${randomBytes(6).toString("hex")}`;
  await session.exec(`CREATE SCHEMA ${schema}; SET search_path TO ${schema}`);
  return {
    session,
    cleanup: () => session.exec(`SET search_path TO public; DROP SCHEMA ${schema} CASCADE`),
  };
}
