import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "@playwright/test";

/**
 * End-to-end tests in Debian's Chromium against a production build (`npx next build` first).
 *
 * The server gets a fresh data directory per run, so every run starts from an empty store. The
 * config is evaluated again in each worker process; keeping the directory in the environment
 * makes workers see the same one instead of making their own. The process that made it removes
 * it when it exits, after the web server has been stopped.
 */
if (!process.env.BERTH_E2E_DATA_DIR) {
  const created = mkdtempSync(join(tmpdir(), "berth-e2e-"));
  process.env.BERTH_E2E_DATA_DIR = created;
  process.on("exit", () => rmSync(created, { recursive: true, force: true }));
}
const dataDir = process.env.BERTH_E2E_DATA_DIR;

const PORT = 3210;
const baseURL = `http://127.0.0.1:${PORT}`;

export default defineConfig({
  testDir: "e2e",
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  workers: 1,
  reporter: "list",
  use: {
    baseURL,
    trace: "retain-on-failure",
  },
  projects: [
    {
      name: "chromium",
      use: {
        browserName: "chromium",
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
      },
    },
  ],
  webServer: {
    command: `npx next start -H 127.0.0.1 -p ${PORT}`,
    // Ready when the health route answers: that also means the store has been opened.
    url: `${baseURL}/api/health`,
    // The embedded defaults, whatever the calling shell has configured.
    env: { BERTH_DATA_DIR: dataDir, DATABASE_URL: "", BERTH_CLUSTER: "embedded" },
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "pipe",
    stderr: "pipe",
    // Let the server release its data-directory lock before the directory is removed.
    gracefulShutdown: { signal: "SIGTERM", timeout: 5_000 },
  },
});
