import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

// The real start-up path (instrumentation.ts → startServer → getRuntime) in a process of its
// own: a bad configuration must end that process, which no in-process test can observe.

let parent: string;
let dataDir: string;
beforeEach(() => {
  parent = mkdtempSync(path.join(tmpdir(), "berth-start-test-"));
  // Not created here: whether it exists afterwards tells whether the start got as far as the store.
  dataDir = path.join(parent, "data");
});
afterEach(() => rmSync(parent, { recursive: true, force: true }));

/** The environment of a server started with only `settings` configured, whatever this shell has set. */
function serverEnvironment(settings: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) {
    if (name.startsWith("BERTH_") || ["DATABASE_URL", "KUBECONFIG", "KUBERNETES_SERVICE_HOST", "NEXT_PHASE"].includes(name)) delete env[name];
  }
  return { ...env, BERTH_DATA_DIR: dataDir, BERTH_CLUSTER: "embedded", ...settings };
}

function startServerWith(settings: Record<string, string>) {
  const script = path.join(import.meta.dirname, "testing", "start-as-next-does.ts");
  const result = spawnSync(process.execPath, ["--import", "tsx", script], { env: serverEnvironment(settings), encoding: "utf8", timeout: 60_000 });
  return { exitCode: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("a server started with an invalid configuration", () => {
  it("exits 1 with a message naming the variable, the value and what is allowed, before opening the store", () => {
    const server = startServerWith({ BERTH_WORKSPACE_BACKEND: "nfs" });
    expect({ exitCode: server.exitCode, stderr: server.stderr, stdout: server.stdout }).toEqual({
      exitCode: 1,
      stderr: expect.stringContaining('BERTH_WORKSPACE_BACKEND = "nfs": workspace backend must be one of: pvc, ephemeral. Allowed: pvc or ephemeral.'),
      stdout: expect.not.stringContaining("started"),
    });
    // No data directory: no lock taken, no PGlite database, no simulated cluster state.
    expect(existsSync(dataDir)).toBe(false);
  });

  it("lists every problem in the one message", () => {
    const server = startServerWith({ BERTH_WORKSPACE_BACKEND: "nfs", BERTH_SANDBOX_NAMESPACE: "Agents", BERTH_SIM_CLOCK_SCALE: "0" });
    const listed = server.stderr.split("\n").filter((line) => line.startsWith("  - ")).map((line) => line.slice(4).split(" = ")[0]);
    expect({ exitCode: server.exitCode, listed }).toEqual({ exitCode: 1, listed: ["BERTH_WORKSPACE_BACKEND", "BERTH_SANDBOX_NAMESPACE", "BERTH_SIM_CLOCK_SCALE"] });
  });
});
