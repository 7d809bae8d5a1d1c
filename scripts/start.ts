// `npm start`: the console as the image runs it — Next.js's standalone server, `node server.js` —
// built first only when there is no build or a source is newer than it.
//
//   npm start [-- -p PORT] [-- -H HOST]      (or PORT; HOST defaults to 0.0.0.0, not $HOSTNAME)
//
// The standalone server changes into its own directory, so paths the configuration holds
// relative to where `npm start` ran (BERTH_DATA_DIR, BERTH_CONFIG_FILE, KUBECONFIG) are made
// absolute first. It runs with NEXT_MANUAL_SIG_HANDLE=true, as in the image: Next.js's own
// SIGTERM and SIGINT handlers would exit at once, before Berth has stopped its reconciler,
// released its Lease and closed the embedded store — an embedded store killed mid-write needs
// recovery at its next open. SIGINT (Ctrl-C) and SIGTERM are passed to the server, which stops
// cleanly and exits; this script exits as it does.
import { spawn, spawnSync } from "node:child_process";
import { lstatSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import path from "node:path";
import { whyBuild } from "./build-staleness.ts";
import { SERVER_MEMORY_ENV } from "./server-memory.ts";
import { STANDALONE_LAYOUT } from "./standalone-layout.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const STANDALONE = path.join(ROOT, ".next", "standalone");
const SERVER = path.join(STANDALONE, "server.js");

function argument(short: string, long: string): string | undefined {
  const args = process.argv.slice(2);
  const index = args.findIndex((arg) => arg === short || arg === long);
  return index >= 0 ? args[index + 1] : undefined;
}

const absolute = (value: string | undefined) => (value ? path.resolve(process.cwd(), value) : undefined);

const reason = whyBuild(ROOT);
if (reason) {
  console.log(`berth: building (${reason})`);
  const build = spawnSync("npx", ["next", "build"], { cwd: ROOT, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
// The browser assets and public/ beside server.js, where the image's run stage copies them:
// linked here, so that several servers started at once (the browser tests) share them safely.
for (const { from, to } of STANDALONE_LAYOUT.filter((copy) => copy.part === "assets")) {
  const link = path.join(STANDALONE, to);
  const existing = lstatSync(link, { throwIfNoEntry: false });
  if (existing?.isSymbolicLink()) continue;
  if (existing) rmSync(link, { recursive: true, force: true });
  mkdirSync(path.dirname(link), { recursive: true });
  try {
    symlinkSync(path.relative(path.dirname(link), path.join(ROOT, from)), link);
  } catch (error) {
    // Another server linked it meanwhile.
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
}

const env: NodeJS.ProcessEnv = {
  ...SERVER_MEMORY_ENV,
  ...process.env,
  NODE_ENV: "production",
  NEXT_MANUAL_SIG_HANDLE: "true",
  PORT: argument("-p", "--port") ?? process.env.PORT ?? "3000",
  // server.js listens on HOSTNAME, which shells and containers often set to the machine's name.
  HOSTNAME: argument("-H", "--hostname") ?? "0.0.0.0",
  BERTH_DATA_DIR: absolute(process.env.BERTH_DATA_DIR ?? ".berth"),
};
for (const name of ["BERTH_CONFIG_FILE", "KUBECONFIG"] as const) if (process.env[name]) env[name] = absolute(process.env[name]);

const server = spawn(process.execPath, [SERVER], { cwd: STANDALONE, env, stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 128 + (signal === "SIGINT" ? 2 : 15) : 1)));
