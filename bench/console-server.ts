// A production console (`next start`, after `npx next build`) on its embedded defaults in a
// data directory of its own, for the benchmarks that measure it over HTTP, and a person signed
// in to it the way a browser is.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { signInOverHttp } from "../e2e/signed-in.ts";
import { SERVER_MEMORY_ENV } from "../scripts/server-memory.ts";

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * BERTH_BENCH_CPU_PROFILE=<dir> runs the server under `node --cpu-prof`, writing a .cpuprofile
 * there when it stops (open it in Chrome's DevTools, Performance tab, to see where time went).
 */
export function startConsole(base: string, dataDir: string, environment: Record<string, string> = {}): ChildProcess {
  const port = new URL(base).port;
  const profileDir = process.env.BERTH_BENCH_CPU_PROFILE;
  const server = ["node_modules/next/dist/bin/next", "start", "-H", "127.0.0.1", "-p", port];
  return spawn(process.execPath, profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, ...server] : server, {
    env: { ...SERVER_MEMORY_ENV, ...process.env, BERTH_DATA_DIR: dataDir, DATABASE_URL: "", BERTH_CLUSTER: "embedded", BERTH_SIM_CLOCK_SCALE: "20", BERTH_PUBLIC_URL: base, ...environment },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
}

/** Resident memory of the console: its process and any it started (Linux /proc), in MiB. */
export function residentMiB(pid: number): number {
  const kib = Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(" ").filter(Boolean).map(Number);
  return kib / 1024 + children.reduce((sum, child) => sum + residentMiB(child), 0);
}

export function stopConsole(server: ChildProcess): void {
  if (server.pid) process.kill(-server.pid, "SIGTERM");
}

/** Signed in as `email` (a demo person of the embedded sign-in): the cookies, and the headers a browser on Berth's page sends. */
export async function signInAs(base: string, email: string) {
  const cookies = await signInOverHttp(base, email);
  return { cookies, header: { cookie: cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join("; "), origin: base } };
}
