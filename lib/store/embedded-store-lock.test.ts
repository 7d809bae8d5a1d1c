import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStore } from "./open-store.ts";

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), "berth-store-lock-test-"));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

/** Opens the store in another process, as a second `npm start` would. */
function openFromAnotherProcess(dir: string) {
  const script = path.join(import.meta.dirname, "testdata", "open-store-once.ts");
  const result = spawnSync(process.execPath, ["--import", "tsx", script, dir], { encoding: "utf8", timeout: 60_000 });
  return { exitCode: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Opens the store in another process that keeps it open, and kills that process with SIGKILL once it has. */
async function openAndKillAnotherProcess(dir: string): Promise<void> {
  const script = path.join(import.meta.dirname, "testdata", "open-store-once.ts");
  const child = spawn(process.execPath, ["--import", "tsx", script, dir, "hold"], { stdio: ["ignore", "pipe", "inherit"] });
  let output = "";
  child.stdout.setEncoding("utf8");
  for await (const chunk of child.stdout) {
    output += chunk;
    if (output.includes("opened")) break;
  }
  child.kill("SIGKILL");
  await once(child, "exit");
}

describe("the embedded store's data directory", () => {
  it("refuses a second process while the first has it open, naming the holder", async () => {
    const store = await openStore({ kind: "pglite", dataDir });
    try {
      const second = openFromAnotherProcess(dataDir);
      expect({ exitCode: second.exitCode, stderr: second.stderr }).toMatchObject({
        exitCode: 3,
        stderr: expect.stringContaining(`is in use by process ${process.pid}`),
      });
    } finally {
      await store.close();
    }
  });

  it("opens in another process once the first has closed it", async () => {
    const store = await openStore({ kind: "pglite", dataDir });
    await store.close();
    expect(openFromAnotherProcess(dataDir).stdout.trim()).toBe("opened");
  });

  it("opens after the process that had it was killed with SIGKILL, without anyone deleting the lock", async () => {
    await openAndKillAnotherProcess(dataDir);
    const store = await openStore({ kind: "pglite", dataDir });
    await store.close();
  });
});
