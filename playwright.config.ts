import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "@playwright/test";

/**
 * End-to-end tests in Debian's Chromium against a production build (`npx next build` first).
 *
 * Each project gets a server of its own on a fresh data directory, so one project's sandboxes
 * never show up in another's pages: "console" checks the shell on an empty store, "api" drives
 * the HTTP API, "flows" walks through the console's user journeys (`*.flow.spec.ts`), which
 * create sandboxes and disrupt them, and "no-default-class" runs on a cluster without a default
 * StorageClass. BERTH_E2E_PORT_BASE moves the four ports (default 3210–3213),
 * so two checkouts can run their suites side by side. The config is evaluated again in each worker process; keeping the directories in
 * the environment makes workers see the same ones. The process that made them removes them when
 * it exits, after the web servers have been stopped.
 */
const PORT_BASE = Number(process.env.BERTH_E2E_PORT_BASE ?? 3210);

const SERVERS = [
  { project: "console", port: PORT_BASE, testMatch: /shell\.spec\.ts/ },
  { project: "api", port: PORT_BASE + 1, testMatch: /api\.spec\.ts/ },
  { project: "flows", port: PORT_BASE + 2, testMatch: /\.flow\.spec\.ts/ },
  // A cluster with no default StorageClass, as some clusters are: what the console says there.
  { project: "no-default-class", port: PORT_BASE + 3, testMatch: /\.no-default-class\.spec\.ts/, env: { BERTH_SIM_DEFAULT_STORAGE_CLASS: "none" } },
] as const;

/** Where the global set-up keeps each demo person's signed-in state (e2e/signed-in.ts). */
function signedInDir(): string {
  if (!process.env.BERTH_E2E_SIGNED_IN_DIR) {
    const created = mkdtempSync(join(tmpdir(), "berth-e2e-signed-in-"));
    process.env.BERTH_E2E_SIGNED_IN_DIR = created;
    process.on("exit", () => rmSync(created, { recursive: true, force: true }));
  }
  return process.env.BERTH_E2E_SIGNED_IN_DIR;
}

function dataDirFor(project: string): string {
  const variable = `BERTH_E2E_DATA_DIR_${project.toUpperCase()}`;
  if (!process.env[variable]) {
    const created = mkdtempSync(join(tmpdir(), `berth-e2e-${project}-`));
    process.env[variable] = created;
    process.on("exit", () => rmSync(created, { recursive: true, force: true }));
  }
  return process.env[variable]!;
}

const chromium = {
  browserName: "chromium" as const,
  launchOptions: {
    executablePath: "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  },
};

const SIGNED_IN = signedInDir();

export default defineConfig({
  testDir: "e2e",
  // Every demo person signed in on every server, once the servers answer.
  globalSetup: "./e2e/global-sign-in.ts",
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  workers: 1,
  reporter: "list",
  use: { trace: "retain-on-failure" },
  projects: SERVERS.map(({ project, port, testMatch }) => ({
    name: project,
    testMatch,
    // A journey waits on a (simulated) cluster several times over; a slow moment of this shared
    // machine should not fail it. Each assertion keeps its own, shorter timeout.
    ...(project === "flows" ? { timeout: 60_000 } : {}),
    // Pages open signed in as the platform admin; a test that is about someone else asks for them (e2e/fixtures.ts).
    use: { ...chromium, baseURL: `http://127.0.0.1:${port}`, storageState: join(SIGNED_IN, `${project}-paula.json`) },
  })),
  webServer: SERVERS.map(({ project, port, ...server }) => ({
    command: `npx tsx scripts/start.ts -H 127.0.0.1 -p ${port}`,
    // Ready when the health route answers: that also means the store has been opened.
    url: `http://127.0.0.1:${port}/api/health`,
    // The embedded defaults, whatever the calling shell has configured.
    env: {
      BERTH_DATA_DIR: dataDirFor(project),
      DATABASE_URL: "",
      BERTH_CLUSTER: "embedded",
      BERTH_SIM_CLOCK_SCALE: "20",
      // Reached as the tests reach it: the sign-in's redirects and the origin check use this.
      BERTH_PUBLIC_URL: `http://127.0.0.1:${port}`,
      // The suites make hundreds of sandboxes, quickly, as one person in one namespace; the
      // limits and rates have their own tests (app/api/hostile-input.test.ts).
      BERTH_MAX_SANDBOXES_PER_NAMESPACE: "10000",
      BERTH_CREATES_PER_MINUTE: "100000",
      BERTH_COMMANDS_PER_MINUTE: "100000",
      BERTH_WRITES_PER_MINUTE: "100000",
      BERTH_STREAMS_PER_PERSON: "1000",
      ...("env" in server ? server.env : {}),
    },
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "pipe" as const,
    stderr: "pipe" as const,
    // Let the server release its data-directory lock before the directory is removed.
    gracefulShutdown: { signal: "SIGTERM" as const, timeout: 5_000 },
  })),
});
