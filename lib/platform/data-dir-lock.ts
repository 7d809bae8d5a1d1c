import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

// PGlite has no locking across processes: two processes writing one data directory silently
// lose commits. So one process at a time holds the directory, proven by a lock file created
// with O_EXCL, and the lock must not outlive its holder, or a crash would need a person to
// delete the file:
// - a holder on this host that is no longer running (kill -9, a restarted container) is seen
//   by its pid at once;
// - a holder on another host (a rescheduled pod whose volume followed it) cannot be seen, so the
//   holder renews its lock as a lease, and a lock that stops being renewed for a whole lease is
//   taken over. Whether it was renewed is judged by watching the file change on this host's
//   clock, not by the holder's timestamps: two hosts' clocks need not agree.
// Taking a lock over is said, naming whom it was taken from and why.

const LOCK_FILE = "berth.lock";
const DEFAULT_LEASE_MS = 30_000;

// Locks this process holds, across every copy of this module Next.js may have loaded.
const HELD = Symbol.for("berth.heldDataDirLocks");
const held: Set<string> = ((globalThis as { [HELD]?: Set<string> })[HELD] ??= new Set());

interface LockOwner {
  pid: number;
  hostname: string;
  acquiredAt: string;
  /** How long the holder may go without renewing before its lock may be taken over. */
  leaseSeconds?: number;
  renewedAt?: string;
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

export interface LockOptions {
  /** How long a lock may go unrenewed before another host takes it over; renewed every third of it. */
  leaseMs?: number;
  /** Where a takeover, or the loss of this process's lock, is told. */
  log?: (line: string) => void;
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

/** The lock file's text, or null when there is none. */
function readLockText(lockPath: string): string | null {
  try {
    return readFileSync(lockPath, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

function parseOwner(text: string | null): LockOwner | null {
  if (text === null) return null;
  try {
    const owner = JSON.parse(text) as Partial<LockOwner>;
    if (typeof owner.pid === "number" && typeof owner.hostname === "string") {
      return { pid: owner.pid, hostname: owner.hostname, acquiredAt: String(owner.acquiredAt), leaseSeconds: typeof owner.leaseSeconds === "number" ? owner.leaseSeconds : undefined, renewedAt: owner.renewedAt };
    }
  } catch {
    // Unreadable or half-written (the writer died between create and write): treat as stale.
  }
  return null;
}

const sameHolder = (a: LockOwner | null, b: LockOwner) => a !== null && a.pid === b.pid && a.hostname === b.hostname && a.acquiredAt === b.acquiredAt;

/**
 * Why the lock in the file may be taken over, or null while its holder may be alive. A holder
 * on another host is watched for one lease: a renewal in that time means it is.
 */
async function whyStale(lockPath: string, text: string, leaseMs: number): Promise<string | null> {
  const owner = parseOwner(text);
  if (owner === null) return "it was left half-written";
  if (owner.hostname === hostname()) {
    // Our own pid in a lock this process does not hold is a previous life of this container
    // (pid 1 again after a restart).
    if (owner.pid === process.pid) return held.has(lockPath) ? null : "it was left by an earlier run of this process id";
    return isRunning(owner.pid) ? null : "that process is no longer running";
  }
  const lease = owner.leaseSeconds !== undefined ? owner.leaseSeconds * 1000 : leaseMs;
  const until = performance.now() + lease;
  while (performance.now() < until) {
    await sleep(Math.max(5, Math.min(1_000, lease / 10)));
    if (readLockText(lockPath) !== text) return null;
  }
  return `it was not renewed for its whole lease (${lease / 1000} s${owner.renewedAt ? `; its holder last renewed it at ${owner.renewedAt} by its own clock` : ""})`;
}

/** Takes the data directory for this process, or throws DataDirInUseError naming the holder. */
export async function lockDataDir(dataDir: string, options: LockOptions = {}): Promise<DataDirLock> {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, LOCK_FILE);
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const log = options.log ?? ((line: string) => console.warn(line));
  const now = new Date().toISOString();
  const me: LockOwner = { pid: process.pid, hostname: hostname(), acquiredAt: now, leaseSeconds: leaseMs / 1000, renewedAt: now };
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = openSync(lockPath, "wx", 0o644);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const text = readLockText(lockPath);
      if (text === null) continue;
      const why = await whyStale(lockPath, text, leaseMs);
      const owner = parseOwner(text);
      if (why === null) {
        // Released while it was watched: free to take.
        if (readLockText(lockPath) === null) continue;
        throw new DataDirInUseError(dataDir, owner ?? unknownOwner);
      }
      // Removed only if it is still the lock judged stale: another process may have taken it over meanwhile.
      if (readLockText(lockPath) === text) rmSync(lockPath, { force: true });
      log(`berth: took over the data directory ${dataDir} from ${owner ? `process ${owner.pid} on ${owner.hostname} (holding it since ${owner.acquiredAt})` : "an unknown holder"}: ${why}.`);
      continue;
    }
    writeSync(fd, JSON.stringify(me));
    closeSync(fd);
    return holdLock(lockPath, me, leaseMs, log);
  }
  throw new DataDirInUseError(dataDir, parseOwner(readLockText(lockPath)) ?? unknownOwner);
}

const unknownOwner: LockOwner = { pid: -1, hostname: "unknown", acquiredAt: "unknown" };

/** Renews the lock every third of its lease until released; says so if another process took it. */
function holdLock(lockPath: string, me: LockOwner, leaseMs: number, log: (line: string) => void): DataDirLock {
  held.add(lockPath);
  let released = false;
  const renew = setInterval(() => {
    try {
      if (!sameHolder(parseOwner(readLockText(lockPath)), me)) {
        clearInterval(renew);
        log(`berth: the lock on ${path.dirname(lockPath)} is no longer this process's: another process took it over. Stop this one: two writers lose each other's commits.`);
        return;
      }
      // Written whole under another name and renamed over the lock, so no reader sees half of it.
      const next = `${lockPath}.${process.pid}.renew`;
      writeFileSync(next, JSON.stringify({ ...me, renewedAt: new Date().toISOString() }), { mode: 0o644 });
      renameSync(next, lockPath);
    } catch (error) {
      clearInterval(renew);
      log(`berth: could not renew the lock on ${path.dirname(lockPath)}: ${(error as Error).message}. Another host may take the directory over.`);
    }
  }, leaseMs / 3);
  renew.unref?.();
  const release = () => {
    if (released) return;
    released = true;
    clearInterval(renew);
    held.delete(lockPath);
    // Only remove the file if it is still ours.
    if (sameHolder(parseOwner(readLockText(lockPath)), me)) rmSync(lockPath, { force: true });
    process.off("exit", release);
  };
  process.on("exit", release);
  return { path: lockPath, release };
}
