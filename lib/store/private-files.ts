import { chmodSync, lstatSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";

// The embedded store holds everything Berth records (specs, the audit log): only Berth's own user
// may read it. PGlite writes its files world-readable and world-writable (0666) whatever the
// umask, so the directory is what keeps others out: 0700, which no other user can enter. Files
// are made 0600 as well each time the store opens and closes, so that a copy of the directory
// (a backup, a volume snapshot) keeps them private.

/** Creates `dir` (and its parents) if needed, and makes it private to this user. */
export function privateDirectory(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/** Makes every directory under `dir` 0700 and every file 0600; symbolic links are left alone. */
export function makeTreePrivate(dir: string): void {
  const pending = [dir];
  while (pending.length > 0) {
    const current = pending.pop()!;
    chmodSync(current, 0o700);
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const child = path.join(current, entry.name);
      if (entry.isDirectory()) pending.push(child);
      else if (entry.isFile()) chmodSync(child, 0o600);
    }
  }
}

/** The permission bits of `file`, for checks and tests. */
export const modeOf = (file: string) => lstatSync(file).mode & 0o777;
