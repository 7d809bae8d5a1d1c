import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { StoreKind } from "../domain/cluster-mode.ts";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import pg from "pg";
import { auditRepository } from "./audit-repository.ts";
import { checkpointRepository } from "./checkpoint-repository.ts";
import { maintenanceRepository } from "./maintenance-repository.ts";
import { operationRepository } from "./operation-repository.ts";
import { spentCodeRepository } from "./spent-code-repository.ts";
import { writerTermRepository } from "./writer-term-repository.ts";
import { lockDataDir, type DataDirLock } from "../platform/data-dir-lock.ts";
import { migrate, readMigrations, DEFAULT_MIGRATIONS_DIR, type MigrationReport } from "./migrator.ts";
import { createPrismaClient, type Db } from "./prisma-client.ts";
import { sandboxRepository } from "./sandbox-repository.ts";
import { settingsRepository } from "./settings-repository.ts";
import { makeTreePrivate, privateDirectory } from "./private-files.ts";
import { pgliteSession, pgSession } from "./sql-session.ts";
import { inProcessNotifications, postgresNotifications, type StoreNotifications } from "./store-notifications.ts";
import { timelineRepository } from "./timeline-repository.ts";
import { logOf } from "../platform/logger.ts";

export type StoreLocation =
  | { kind: Extract<StoreKind, "pglite">; dataDir: string }
  | { kind: Extract<StoreKind, "postgresql">; databaseUrl: string };

export type { StoreKind };

export interface Store {
  readonly kind: StoreKind;
  readonly migrations: MigrationReport;
  readonly sandboxes: ReturnType<typeof sandboxRepository>;
  readonly timeline: ReturnType<typeof timelineRepository>;
  readonly checkpoints: ReturnType<typeof checkpointRepository>;
  readonly settings: ReturnType<typeof settingsRepository>;
  readonly audit: ReturnType<typeof auditRepository>;
  readonly maintenance: ReturnType<typeof maintenanceRepository>;
  /** Creates, deletes and checkpoints running in any replica. */
  readonly operations: ReturnType<typeof operationRepository>;
  /** The elected writer's term, which fenced writes must carry. */
  readonly writerTerms: ReturnType<typeof writerTermRepository>;
  /** One-time codes already used. */
  readonly spentCodes: ReturnType<typeof spentCodeRepository>;
  /** Answers a trivial query; throws if the database cannot. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

function repositories(db: Db, notifications: StoreNotifications) {
  return {
    sandboxes: sandboxRepository(db, notifications),
    timeline: timelineRepository(db, notifications),
    checkpoints: checkpointRepository(db),
    settings: settingsRepository(db),
    audit: auditRepository(db),
    maintenance: maintenanceRepository(db, notifications),
    operations: operationRepository(db, notifications),
    writerTerms: writerTermRepository(db),
    spentCodes: spentCodeRepository(db),
    async ping() {
      await db.$queryRaw`SELECT 1`;
    },
  };
}

/** Opens the store, migrated and ready, or throws with a message that says what to do. */
export async function openStore(location: StoreLocation, migrationsDir = DEFAULT_MIGRATIONS_DIR): Promise<Store> {
  const migrations = await readMigrations(migrationsDir);
  return location.kind === "pglite"
    ? openEmbedded(location.dataDir, migrations)
    : openPostgres(location.databaseUrl, migrations);
}

/**
 * PGlite touches all of PostgreSQL's buffer pool as it starts, so the default 128MB is resident
 * from the first moment. 16MB keeps 10,000 sandboxes' reads as fast (the data files stay in the
 * operating system's cache; measured: listing all of them and reading one at random took the same
 * time) and a process holding only the store 100–170 MiB smaller.
 */
const EMBEDDED_SHARED_BUFFERS = "16MB";

async function openEmbedded(dataDir: string, migrations: Awaited<ReturnType<typeof readMigrations>>): Promise<Store> {
  // PGlite does not create parent directories.
  privateDirectory(dataDir);
  const lock: DataDirLock = await lockDataDir(dataDir);
  let pglite: PGlite | undefined;
  const pgdata = path.join(dataDir, "pgdata");
  try {
    privateDirectory(pgdata);
    pglite = await PGlite.create(pgdata, { startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`] });
    makeTreePrivate(pgdata);
    const report = await migrate(pgliteSession(pglite), migrations);
    const db = createPrismaClient(new PrismaPGlite(pglite));
    const opened = pglite;
    const notifications = inProcessNotifications();
    return {
      kind: "pglite",
      migrations: report,
      ...repositories(db, notifications),
      async close() {
        await notifications.close();
        await db.$disconnect();
        await opened.close();
        makeTreePrivate(pgdata);
        lock.release();
      },
    };
  } catch (error) {
    await pglite?.close().catch(() => {});
    lock.release();
    throw error;
  }
}

async function openPostgres(databaseUrl: string, migrations: Awaited<ReturnType<typeof readMigrations>>): Promise<Store> {
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `Cannot connect to PostgreSQL at ${redactPassword(databaseUrl)}: ${(error as Error).message}. ` +
        `Check DATABASE_URL, or unset it to use the embedded store in BERTH_DATA_DIR.`,
      { cause: error },
    );
  }
  let report: MigrationReport;
  try {
    report = await migrate(pgSession(client), migrations);
  } finally {
    await client.end();
  }
  const db = createPrismaClient(new PrismaPg({ connectionString: databaseUrl }));
  const notifications = postgresNotifications(databaseUrl, {
    onError: (error) => logOf("store").warn({ err: error }, "listening for changes in the store failed; connecting again"),
  });
  return {
    kind: "postgresql",
    migrations: report,
    ...repositories(db, notifications),
    async close() {
      await notifications.close();
      await db.$disconnect();
    },
  };
}

export function redactPassword(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    if (url.password) url.password = "***";
    return url.toString();
  } catch {
    return "(an unparseable DATABASE_URL)";
  }
}
