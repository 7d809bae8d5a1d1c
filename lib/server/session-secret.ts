import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

// The embedded default needs no configured session secret: one is made once and kept in the data
// directory (readable by its owner only), so that a restart signs nobody out. A real installation
// names its own (BERTH_SESSION_SECRET, from a Secret), shared by every replica.

export function sessionSecretIn(dataDir: string): string {
  const file = path.join(/* turbopackIgnore: true */ dataDir, "session-secret");
  if (existsSync(file)) {
    const kept = readFileSync(file, "utf8").trim();
    if (kept.length >= 32) return kept;
  }
  const secret = randomBytes(48).toString("base64url");
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
