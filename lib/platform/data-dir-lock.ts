import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";

// PGlite has no locking across processes: two processes writing one data directory silently
// lose commits. So one process at a time holds the directory, proven by a lock file created
// with O_EXCL. A holder that died (kill -9, power loss) is recognised by its pid no longer
// running on this host, so a crash never needs a person to delete the file.

const LOCK_FILE = "berth.lock";

// Locks this process holds, across every copy of this module Next.js may have loaded.
const HELD = Symbol.for("berth.heldDataDirLocks");
const held: Set<string> = ((globalThis as { [HELD]?: Set<string> })[HELD] ??= new Set());

interface LockOwner {
  pid: number;
  hostname: string;
  acquiredAt: string;
}

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly owner: LockOwner,
  ) {
    super(
      `The data directory ${dataDir} is in use by process ${owner.pid} on ${owner.hostname} ` +
        `(since ${owner.acquiredAt}). Only one Berth process may use an embedded store at a time: ` +
        `stop that process, or give this one another directory with BERTH_DATA_DIR, ` +
        `or use PostgreSQL through DATABASE_URL to run several.`,
    );
    this.name = "DataDirInUseError";
  }
}

export interface DataDirLock {
  readonly path: string;
  release(): void;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readOwner(lockPath: string): LockOwner | null {
  try {
    const owner = JSON.parse(readFileSync(lockPath, "utf8")) as Partial<LockOwner>;
    if (typeof owner.pid === "number" && typeof owner.hostname === "string") {
      return { pid: owner.pid, hostname: owner.hostname, acquiredAt: String(owner.acquiredAt) };
    }
  } catch {
    // Unreadable or half-written (the writer died between create and write): treat as stale.
  }
  return null;
}

function isStale(lockPath: string, owner: LockOwner | null): boolean {
  if (owner === null) return true;
  // Another host may share the directory over a network file system; we cannot see its pids.
  if (owner.hostname !== hostname()) return false;
  // Our own pid in a lock this process does not hold is a previous life of this container
  // (pid 1 again after a restart).
  if (owner.pid === process.pid) return !held.has(lockPath);
  return !isRunning(owner.pid);
}

/** Takes the data directory for this process, or throws DataDirInUseError naming the holder. */
export function lockDataDir(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, LOCK_FILE);
  const me: LockOwner = { pid: process.pid, hostname: hostname(), acquiredAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    let fd: number;
    try {
      fd = openSync(lockPath, "wx", 0o644);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = readOwner(lockPath);
      if (!isStale(lockPath, owner)) throw new DataDirInUseError(dataDir, owner!);
      rmSync(lockPath, { force: true });
      continue;
    }
    writeSync(fd, JSON.stringify(me));
    closeSync(fd);
    held.add(lockPath);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      held.delete(lockPath);
      // Only remove the file if it is still ours.
      if (readOwner(lockPath)?.pid === me.pid) rmSync(lockPath, { force: true });
      process.off("exit", release);
    };
    process.on("exit", release);
    return { path: lockPath, release };
  }
  throw new DataDirInUseError(dataDir, readOwner(lockPath) ?? { pid: -1, hostname: "unknown", acquiredAt: "unknown" });
}
