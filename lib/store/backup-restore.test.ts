import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "./index.ts";
import { createPostgresDatabase, testStoreKind } from "./test-databases.ts";
import { aNewSandbox } from "./test-fixtures.ts";

// The backup and restore of docs/operations.md, run as it says: pg_dump of a store in use, and
// pg_restore into an empty database that a Berth then opens with everything in it.

let source: Awaited<ReturnType<typeof createPostgresDatabase>>;
let target: Awaited<ReturnType<typeof createPostgresDatabase>>;
let work: string;
let restored: Store;
let recordId: string;

describe.runIf(testStoreKind === "postgresql")("a PostgreSQL store backed up and restored as the operations guide says", () => {
  beforeAll(async () => {
    [source, target] = await Promise.all([createPostgresDatabase(), createPostgresDatabase()]);
    work = mkdtempSync(path.join(tmpdir(), "berth-backup-"));
    const store = await openStore({ kind: "postgresql", databaseUrl: source.url });
    try {
      recordId = (await store.sandboxes.recordSandbox(aNewSandbox({ name: "kept-in-the-backup" }))).id;
      await store.timeline.appendEvent({ sandboxId: recordId, type: "Lifecycle", reason: "Created", message: "before the backup", occurredAt: new Date() });
    } finally {
      await store.close();
    }
    const dump = path.join(work, "berth.dump");
    execFileSync("pg_dump", ["--format=custom", `--file=${dump}`, source.url]);
    execFileSync("pg_restore", ["--clean", "--if-exists", "--no-owner", `--dbname=${target.url}`, dump]);
    restored = await openStore({ kind: "postgresql", databaseUrl: target.url });
  }, 60_000);

  afterAll(async () => {
    await restored?.close();
    await Promise.all([source?.drop(), target?.drop()]);
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("opens with every migration already applied", () => {
    expect(restored.migrations.applied).toEqual([]);
  });

  it("has the sandbox's record and its timeline", async () => {
    const events = await restored.timeline.listForSandbox(recordId, { limit: 10 });
    expect([(await restored.sandboxes.getSandbox(recordId))?.name, events.map((event) => event.message)]).toEqual(["kept-in-the-backup", ["before the backup"]]);
  });
});
