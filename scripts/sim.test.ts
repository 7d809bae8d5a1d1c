import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { CoreV1Api, KubeConfig } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../lib/sim/testing/eventually.ts";

// `npm run sim` as a user runs it: a child process on a fresh data directory, reached through
// the kubeconfig it prints, and driven by its subcommands.

const run = promisify(execFile);
// `node --import tsx` is what `tsx scripts/sim.ts` runs, in one process: a kill reaches the cluster itself.
const SIM = ["--import", "tsx", path.resolve("scripts/sim.ts")];

/** The parent's environment without its simulator settings, so the defaults are what is tested. */
function simEnvironment(dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith("BERTH_")) delete env[key];
  return { ...env, BERTH_DATA_DIR: dataDir, BERTH_SIM_CLOCK_SCALE: "50" };
}

/** Starts `npm run sim` and waits for the two lines it prints once it serves. */
async function startStandalone(dataDir: string): Promise<{ child: ChildProcess; server: string; kubeconfig: string }> {
  const child = spawn(process.execPath, SIM, { env: simEnvironment(dataDir), stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const printed = await eventually(() => {
    const server = /serving at (\S+)/.exec(output)?.[1];
    const kubeconfig = /kubeconfig: (\S+)/.exec(output)?.[1];
    if (!server || !kubeconfig) throw new Error(`not serving yet: ${output}`);
    return { server, kubeconfig };
  }, { timeoutMs: 45_000 });
  return { child, ...printed };
}

describe("npm run sim", () => {
  let dataDir: string;
  let standalone: Awaited<ReturnType<typeof startStandalone>>;
  let core: CoreV1Api;
  const subcommand = (...args: string[]) => run(process.execPath, [...SIM, ...args], { env: simEnvironment(dataDir) });

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "berth-sim-standalone-"));
    standalone = await startStandalone(dataDir);
    const config = new KubeConfig();
    config.loadFromFile(standalone.kubeconfig);
    core = config.makeApiClient(CoreV1Api);
  });
  afterAll(() => {
    if (standalone?.child.exitCode === null) standalone.child.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("prints a kubeconfig through which client-node sees three workers", async () => {
    const nodes = await core.listNode();
    expect([standalone.kubeconfig, nodes.items.map((node) => node.metadata!.name)]).toEqual([path.join(dataDir, "cluster", "kubeconfig"), ["worker-1", "worker-2", "worker-3"]]);
  });

  it("cordons a node with `cordon <node>`", async () => {
    await subcommand("cordon", "worker-1");
    expect((await core.readNode({ name: "worker-1" })).spec!.unschedulable).toBe(true);
  });

  it("kubelet-evicts a pod for the resource named with --resource", async () => {
    await core.createNamespacedPod({ namespace: "default", body: { metadata: { name: "pressed" }, spec: { nodeName: "worker-2", containers: [{ name: "agent", image: "busybox", command: ["sleep", "infinity"] }] } } });
    await eventually(async () => {
      if ((await core.readNamespacedPod({ namespace: "default", name: "pressed" })).status?.phase !== "Running") throw new Error("not running");
    }, { timeoutMs: 15_000 });
    await subcommand("kubelet-evict", "default/pressed", "--resource=ephemeral-storage");
    expect((await core.readNamespacedPod({ namespace: "default", name: "pressed" })).status!.message).toContain("low on resource: ephemeral-storage");
  });

  it("stops on SIGTERM with exit code 0, its state saved", async () => {
    const exited = new Promise<number | null>((resolve) => standalone.child.once("exit", (code) => resolve(code)));
    standalone.child.kill("SIGTERM");
    expect([await exited, existsSync(path.join(dataDir, "cluster", "state.json"))]).toEqual([0, true]);
  });
});
