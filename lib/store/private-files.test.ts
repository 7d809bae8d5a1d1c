import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "./open-store.ts";
import { modeOf } from "./private-files.ts";

// The embedded store is Berth's alone: no other user of the machine may read or change it.

const root = mkdtempSync(path.join(tmpdir(), "berth-private-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true, recursive: true }).filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));

describe("the embedded store's files", () => {
  it("live in a data directory no other user can enter", async () => {
    const dataDir = path.join(root, "fresh", "data");
    const store = await openStore({ kind: "pglite", dataDir });
    const modes = [modeOf(dataDir), modeOf(path.join(dataDir, "pgdata"))];
    await store.close();
    expect(modes).toEqual([0o700, 0o700]);
  });

  it("are readable and writable by Berth's user only once the store has closed", async () => {
    const dataDir = path.join(root, "closed");
    const store = await openStore({ kind: "pglite", dataDir });
    await store.close();
    const open = filesUnder(path.join(dataDir, "pgdata")).filter((file) => (modeOf(file) & 0o077) !== 0);
    expect(open).toEqual([]);
  });
});
