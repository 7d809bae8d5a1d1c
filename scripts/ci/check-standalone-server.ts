// The server the image runs, without building the image (there is no container runtime here):
// after `next build`, assemble the standalone directory exactly as the Dockerfile's run stage
// does, start `node server.js` from it on Berth's embedded defaults (a fresh data directory, the
// embedded PGlite store, the embedded simulated cluster), and check that it answers
// `GET /api/health` and renders a page with its static assets, and that the image's bundled
// `berth` (built here first, scripts/build-cli.ts) runs from bin/ with nothing else beside it and
// talks to that server. Then stop it and remove everything it made. `npm test` runs it as the
// "standalone" step, right after "build".
//
//   npx next build && npx tsx scripts/ci/check-standalone-server.ts
//
// Exits non-zero with the reason (and the server's output, if it got that far) on any failure.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { buildCli } from "../build-cli.ts";
import { STANDALONE_LAYOUT } from "../standalone-layout.ts";

/** Opening a fresh PGlite directory takes 5–10 s on this 2-core machine; a loaded CI box may take longer. */
const READY_TIMEOUT_MS = Number(process.env.BERTH_STANDALONE_TIMEOUT_MS ?? 120_000);
const STOP_TIMEOUT_MS = 10_000;

const root = process.cwd();

class CheckFailed extends Error {}

function fail(message: string): never {
  throw new CheckFailed(message);
}

/** The run stage's `COPY --from=build /app/<from> ./<to>` lines, in order. */
function dockerfileCopies(): { from: string; to: string }[] {
  const dockerfile = readFileSync(path.join(root, "Dockerfile"), "utf8");
  const copies: { from: string; to: string }[] = [];
  for (const line of dockerfile.split("\n")) {
    if (!/^COPY\s+--from=build\b/.test(line)) continue;
    const match = /^COPY\s+--from=build\s+\/app\/(\S+?)\/?\s+\.\/(\S*?)\/?\s*$/.exec(line.trim());
    if (!match) fail(`Dockerfile: cannot read "${line.trim()}"; write run-stage copies as COPY --from=build /app/<path> ./<path>`);
    copies.push({ from: match[1]!, to: match[2] || "." });
  }
  return copies;
}

function checkDockerfileAgrees(): void {
  const expected = JSON.stringify(STANDALONE_LAYOUT.map(({ from, to }) => ({ from, to })));
  const actual = JSON.stringify(dockerfileCopies());
  if (actual !== expected) {
    fail(`the Dockerfile's run stage copies ${actual}, but this check assembles ${expected}; change both together (STANDALONE_LAYOUT in scripts/standalone-layout.ts)`);
  }
}

function assemble(appDir: string): void {
  for (const { from, to } of STANDALONE_LAYOUT) {
    const source = path.join(root, from);
    if (!existsSync(source)) {
      fail(from === ".next/standalone" || from === ".next/static"
        ? `${from} is missing: run \`npx next build\` first (next.config.ts must keep output: "standalone")`
        : `${from} is missing`);
    }
    // Relative symlinks (Turbopack links .next/node_modules/<pkg>-<hash> into node_modules) stay
    // as they are, as Docker's COPY keeps them. The links `npm start` puts where the later copies
    // go (scripts/start.ts) are not the build's: the later copies take their place.
    const linkedByStart = new Set(STANDALONE_LAYOUT.filter((copy) => copy.part === "assets").map((copy) => path.join(root, ".next/standalone", copy.to)));
    cpSync(source, path.join(appDir, to), { recursive: true, verbatimSymlinks: true, filter: (entry) => !(linkedByStart.has(entry) && lstatSync(entry).isSymbolicLink()) });
  }
  if (!existsSync(path.join(appDir, "server.js"))) fail(".next/standalone/server.js is missing: is output: \"standalone\" still set in next.config.ts?");
}

function sizeOf(dir: string): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    bytes += entry.isDirectory() ? sizeOf(full) : lstatSync(full).size;
  }
  return bytes;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

function exitOf(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once("exit", () => resolve()));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** True if the child exits within `ms`; leaves no timer behind to keep this process alive. */
async function exitsWithin(child: ChildProcess, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => { timer = setTimeout(() => resolve(false), ms); });
  try {
    return await Promise.race([exitOf(child).then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function waitForHealth(base: string, child: ChildProcess): Promise<Response> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let last = "no answer yet";
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) fail(`the server exited (${child.exitCode ?? child.signalCode}) before /api/health answered`);
    try {
      // The first request waits for instrumentation (store and cluster) to finish starting.
      const response = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())) });
      if (response.status === 200) return response;
      last = `HTTP ${response.status}: ${(await response.text()).slice(0, 500)}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await sleep(250);
  }
  fail(`GET /api/health did not answer 200 within ${READY_TIMEOUT_MS / 1000} s (last: ${last})`);
}

/**
 * The image's `berth`, run as the image runs it (its own shebang, on the PATH's node), with only
 * the assembled directory beside it: it prints its version, and signed in with the embedded
 * cluster administrator's token it says who that is and lists the nodes.
 */
async function checkBundledCli(appDir: string, base: string, dataDir: string): Promise<void> {
  const berth = path.join(appDir, "bin", "berth");
  const run = async (args: string[]) => {
    try {
      return (await promisify(execFile)(berth, args, { cwd: appDir, env: { ...process.env, BERTH_CONFIG: path.join(dataDir, "berth-cli.yaml"), NO_COLOR: "1" } })).stdout;
    } catch (error) {
      const { stdout, stderr } = error as { stdout?: string; stderr?: string };
      fail(`bin/berth ${args.join(" ")} failed: ${(error as Error).message}\n${stdout ?? ""}${stderr ?? ""}`);
    }
  };
  const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };
  const printed = (await run(["--version"])).trim();
  if (printed !== version) fail(`bin/berth --version printed ${JSON.stringify(printed)}, expected ${version}`);
  const kubeconfig = JSON.parse(readFileSync(path.join(dataDir, "cluster", "kubeconfig"), "utf8")) as { users: { user: { token: string } }[] };
  const signedIn = ["--server", base, "--token", kubeconfig.users[0]!.user.token];
  const whoami = await run(["whoami", ...signedIn]);
  if (!/^Name:\s+\S+/.test(whoami)) fail(`bin/berth whoami printed no name:\n${whoami}`);
  const nodes = await run(["get", "nodes", "-o", "name", ...signedIn]);
  if (!/^node\/\S+$/m.test(nodes)) fail(`bin/berth get nodes -o name listed no node:\n${nodes}`);
}

async function main(): Promise<void> {
  const work = mkdtempSync(path.join(tmpdir(), "berth-standalone-"));
  const appDir = path.join(work, "app");
  const dataDir = path.join(work, "data");
  let child: ChildProcess | undefined;
  const output: string[] = [];
  const stop = async () => {
    if (child?.pid && child.exitCode === null && child.signalCode === null) {
      // The server closes its store and cluster on SIGTERM, as under Kubernetes; the process
      // group makes sure nothing it started is left behind either way.
      try { process.kill(-child.pid, "SIGTERM"); } catch { /* already gone */ }
      if (!(await exitsWithin(child, STOP_TIMEOUT_MS))) {
        output.push(`(did not stop within ${STOP_TIMEOUT_MS / 1000} s of SIGTERM: killed)\n`);
        try { process.kill(-child.pid, "SIGKILL"); } catch { /* already gone */ }
        await exitOf(child);
      }
    }
    rmSync(work, { recursive: true, force: true });
  };
  const interrupted = () => void stop().finally(() => process.exit(130));
  process.once("SIGINT", interrupted);
  process.once("SIGTERM", interrupted);

  try {
    checkDockerfileAgrees();
    let began = performance.now();
    const { bytes } = await buildCli();
    console.log(`bundled berth: ${(bytes / 1024).toFixed(0)} KiB (${Math.round(performance.now() - began)} ms)`);
    began = performance.now();
    assemble(appDir);
    const megabytes = (sizeOf(appDir) / 1024 / 1024).toFixed(1);
    console.log(`assembled ${STANDALONE_LAYOUT.map((copy) => copy.from).join(", ")} in ${work}/app: ${megabytes} MB (${Math.round(performance.now() - began)} ms)`);

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: "production",
      HOSTNAME: "127.0.0.1",
      PORT: String(port),
      NEXT_TELEMETRY_DISABLED: "1",
      // As the image sets it: Berth alone handles SIGTERM, closing the store before it exits.
      NEXT_MANUAL_SIG_HANDLE: "true",
      // Berth's embedded defaults, whatever the calling shell has configured.
      BERTH_DATA_DIR: dataDir,
      DATABASE_URL: "",
      BERTH_CLUSTER: "embedded",
      BERTH_PUBLIC_URL: base,
    };
    for (const name of ["BERTH_CONFIG_FILE", "BERTH_SIM_PORT", "KUBECONFIG", "BERTH_AUTH_MODE", "BERTH_SESSION_SECRET"]) delete env[name];
    began = performance.now();
    child = spawn(process.execPath, ["server.js"], { cwd: appDir, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout!.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => output.push(chunk.toString()));

    const health = await waitForHealth(base, child);
    const readyMs = Math.round(performance.now() - began);
    // Not signed in, the server says only whether it serves; "ok" needs the embedded store and cluster up.
    const body = (await health.json()) as { status?: string };
    if (body.status !== "ok") fail(`/api/health says status ${JSON.stringify(body.status)}, expected "ok": ${JSON.stringify(body)}`);
    console.log(`GET /api/health: 200 "ok" after ${readyMs} ms from spawn`);

    began = performance.now();
    // A stranger is sent to sign in, and the sign-in page renders with its assets.
    const guarded = await fetch(`${base}/sandboxes`, { redirect: "manual" });
    await guarded.arrayBuffer();
    const location = guarded.headers.get("location") ?? "";
    if (guarded.status !== 307 || !location.includes("/sign-in")) fail(`GET /sandboxes without a session: HTTP ${guarded.status} to ${JSON.stringify(location)}, expected a redirect to /sign-in`);
    const page = await fetch(`${base}/sign-in`);
    const html = await page.text();
    if (page.status !== 200 || !page.headers.get("content-type")?.startsWith("text/html")) {
      fail(`GET /sign-in: HTTP ${page.status} ${page.headers.get("content-type")}: ${html.slice(0, 500)}`);
    }
    // The assets the image copies next to the standalone output: one script the page loads, and public/.
    const script = /\/_next\/static\/[^"']+\.js/.exec(html)?.[0];
    if (!script) fail("GET /sign-in: the page names no /_next/static script");
    for (const asset of [script, "/berth.svg"]) {
      const response = await fetch(`${base}${asset}`);
      await response.arrayBuffer();
      if (response.status !== 200) fail(`GET ${asset}: HTTP ${response.status} (is ${asset.startsWith("/_next") ? ".next/static" : "public"} copied?)`);
    }
    console.log(`GET /sandboxes: 307 to /sign-in; GET /sign-in: 200 HTML; ${script} and /berth.svg: 200 (${Math.round(performance.now() - began)} ms)`);

    began = performance.now();
    await checkBundledCli(appDir, base, dataDir);
    console.log(`bin/berth: --version, whoami and get nodes against it (${Math.round(performance.now() - began)} ms)`);

    // Stop it as Kubernetes does: Berth's handler closes the store and the cluster, then exits 0.
    began = performance.now();
    process.kill(-child.pid!, "SIGTERM");
    if (!(await exitsWithin(child, STOP_TIMEOUT_MS))) fail(`the server did not exit within ${STOP_TIMEOUT_MS / 1000} s of SIGTERM`);
    const exit = child.exitCode ?? child.signalCode;
    if (exit !== 0) fail(`the server exited with ${exit} on SIGTERM, expected 0 (Berth's own handler, after closing the store)`);
    if (existsSync(path.join(dataDir, "berth.lock"))) fail("the server exited on SIGTERM without closing the embedded store (its lock file is left)");
    console.log(`stopped on SIGTERM (exit 0) in ${Math.round(performance.now() - began)} ms, store closed`);
    began = performance.now();
    await stop();
    console.log(`removed ${work} (${Math.round(performance.now() - began)} ms)\nstandalone server: ok`);
  } catch (error) {
    await stop();
    const server = output.join("").trim();
    console.error(`\nstandalone server check failed: ${(error as Error).message}`);
    if (server) console.error(`\nThe server's output:\n${server.split("\n").slice(-80).join("\n")}`);
    if (!(error instanceof CheckFailed)) console.error((error as Error).stack);
    process.exitCode = 1;
  }
}

await main();
