import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DataDirInUseError, lockDataDir } from "./data-dir-lock.ts";

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), "berth-lock-test-"));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

function aPidThatIsNotRunning(): number {
  const child = spawnSync(process.execPath, ["-e", "console.log(process.pid)"], { encoding: "utf8" });
  return Number(child.stdout.trim());
}

describe("the data directory lock", () => {
  it("refuses a second holder in the same process", () => {
    const lock = lockDataDir(dataDir);
    try {
      expect(() => lockDataDir(dataDir)).toThrow(DataDirInUseError);
    } finally {
      lock.release();
    }
  });

  it("tells the refused process what to do", () => {
    const lock = lockDataDir(dataDir);
    try {
      expect(() => lockDataDir(dataDir)).toThrow(/BERTH_DATA_DIR/);
    } finally {
      lock.release();
    }
  });

  it("takes over a lock left by a process that died", () => {
    const dead = aPidThatIsNotRunning();
    writeFileSync(path.join(dataDir, "berth.lock"), JSON.stringify({ pid: dead, hostname: hostname(), acquiredAt: "2026-01-01T00:00:00Z" }));
    const lock = lockDataDir(dataDir);
    expect(JSON.parse(readFileSync(lock.path, "utf8")).pid).toBe(process.pid);
    lock.release();
  });

  it("takes over a lock file that was left half-written", () => {
    writeFileSync(path.join(dataDir, "berth.lock"), "");
    const lock = lockDataDir(dataDir);
    expect(JSON.parse(readFileSync(lock.path, "utf8")).pid).toBe(process.pid);
    lock.release();
  });

  it("does not take over a lock held from another host", () => {
    writeFileSync(path.join(dataDir, "berth.lock"), JSON.stringify({ pid: 1, hostname: "some-other-host", acquiredAt: "2026-01-01T00:00:00Z" }));
    expect(() => lockDataDir(dataDir)).toThrow(/process 1 on some-other-host/);
  });

  it("removes the lock file on release", () => {
    lockDataDir(dataDir).release();
    expect(() => readFileSync(path.join(dataDir, "berth.lock"))).toThrow(/ENOENT/);
  });
});
