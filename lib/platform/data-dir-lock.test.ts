import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DataDirInUseError, lockDataDir, type DataDirLock, type LockOptions } from "./data-dir-lock.ts";

let dataDir: string;
const held: DataDirLock[] = [];
beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), "berth-lock-test-"));
});
afterEach(() => {
  held.splice(0).forEach((lock) => lock.release());
  rmSync(dataDir, { recursive: true, force: true });
});

async function lock(options: LockOptions = {}): Promise<DataDirLock> {
  const taken = await lockDataDir(dataDir, { log: () => {}, ...options });
  held.push(taken);
  return taken;
}

const lockFile = () => path.join(dataDir, "berth.lock");
const holderOf = (file = lockFile()) => JSON.parse(readFileSync(file, "utf8")) as { pid: number; hostname: string; renewedAt: string };
const leftBy = (owner: object) => writeFileSync(lockFile(), JSON.stringify({ acquiredAt: "2026-01-01T00:00:00Z", ...owner }));

function aPidThatIsNotRunning(): number {
  const child = spawnSync(process.execPath, ["-e", "console.log(process.pid)"], { encoding: "utf8" });
  return Number(child.stdout.trim());
}

describe("the data directory lock", () => {
  it("refuses a second holder in the same process", async () => {
    await lock();
    await expect(lock()).rejects.toThrow(DataDirInUseError);
  });

  it("tells the refused process what to do", async () => {
    await lock();
    await expect(lock()).rejects.toThrow(/BERTH_DATA_DIR/);
  });

  it("takes over a lock left by a process on this host that died, and says so", async () => {
    const dead = aPidThatIsNotRunning();
    leftBy({ pid: dead, hostname: hostname() });
    const said: string[] = [];
    const taken = await lock({ log: (line) => said.push(line) });
    expect({ holder: holderOf(taken.path).pid, said }).toEqual({ holder: process.pid, said: [expect.stringContaining(`from process ${dead} on ${hostname()}`)] });
  });

  it("takes over a lock file that was left half-written", async () => {
    writeFileSync(lockFile(), "");
    expect(holderOf((await lock()).path).pid).toBe(process.pid);
  });

  it("does not take over a lock from another host while its holder renews it", async () => {
    const renewing = setInterval(() => leftBy({ pid: 1, hostname: "some-other-host", leaseSeconds: 0.3, renewedAt: new Date().toISOString() }), 50);
    try {
      leftBy({ pid: 1, hostname: "some-other-host", leaseSeconds: 0.3 });
      await expect(lock()).rejects.toThrow(/process 1 on some-other-host/);
    } finally {
      clearInterval(renewing);
    }
  });

  it("takes over a lock from another host once it went a whole lease unrenewed, and says so", async () => {
    leftBy({ pid: 1, hostname: "rescheduled-pod", leaseSeconds: 0.2, renewedAt: "2026-01-01T00:00:10Z" });
    const said: string[] = [];
    const taken = await lock({ log: (line) => said.push(line) });
    expect({ holder: holderOf(taken.path).hostname, said }).toEqual({
      holder: hostname(),
      said: [expect.stringMatching(/from process 1 on rescheduled-pod .*not renewed for its whole lease \(0\.2 s/)],
    });
  });

  it("renews its lock while it holds it", async () => {
    const taken = await lock({ leaseMs: 90 });
    const first = holderOf(taken.path).renewedAt;
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(holderOf(taken.path).renewedAt).not.toBe(first);
  });

  it("says so when another process took its lock over", async () => {
    const said: string[] = [];
    await lock({ leaseMs: 60, log: (line) => said.push(line) });
    leftBy({ pid: 1, hostname: "some-other-host" });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(said).toEqual([expect.stringContaining("another process took it over")]);
  });

  it("removes the lock file on release", async () => {
    (await lockDataDir(dataDir)).release();
    expect(() => readFileSync(lockFile())).toThrow(/ENOENT/);
  });
});
