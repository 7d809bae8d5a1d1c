import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { createBerthClient, type BerthClient } from "@/lib/client/berth-client.ts";
import type { SandboxRecord } from "@/lib/domain/sandbox-record.ts";
import { eventually } from "@/lib/sim/testing/eventually.ts";

// The server's log as a log pipeline reads it: a Berth process on its embedded defaults, logging
// JSON lines, drains a node with a sandbox on it. Every request is a line with its route, status,
// duration, person and request id (the id also in the response and in problem+json); every
// timeline event is a line with the sandbox, its namespace, the pod and node; and the bearer
// token that made the calls is nowhere in it.

type LogLine = Record<string, unknown>;
const TEAM = "team-a";

let berth: ChildProcess;
let work: string;
let log: LogLine[];
let token: string;
let admin: BerthClient;
let drained: SandboxRecord;
let drainRequestId: string | null;

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), "berth-log-"));
  log = [];
  berth = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "testing", "replica-process.ts")], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, BERTH_DATA_DIR: work, BERTH_LOG_LEVEL: "info", BERTH_LOG_FORMAT: "json" },
  });
  let port = 0;
  await new Promise<void>((resolve, reject) => {
    berth.on("exit", (code) => reject(new Error(`the server exited (${code}) before it was ready`)));
    createInterface({ input: berth.stdout! }).on("line", (line) => {
      if (line.startsWith("{")) log.push(JSON.parse(line) as LogLine);
      else if (line.startsWith("http ")) port = Number(line.slice(5));
      else if (line === "ready") resolve();
    });
  });
  const kubeconfig = parse(readFileSync(path.join(work, "cluster", "kubeconfig"), "utf8")) as { users: { user: { token: string } }[] };
  token = kubeconfig.users[0]!.user.token;
  const server = `http://127.0.0.1:${port}`;
  admin = createBerthClient({ server, token });
  const created = await admin.createSandbox({ body: { name: "logged", namespace: TEAM, workspace: { backend: "pvc", claim: { storageClassName: "portable", ownership: "delete" } }, disruptionPolicy: { terminationGracePeriodSeconds: 1 } } });
  const ready = await eventually(async () => {
    const sandbox = await admin.getSandbox({ params: { id: "id" in created ? created.id : "" } });
    if (sandbox.phase !== "Ready") throw new Error(`the sandbox is ${sandbox.phase}`);
    return sandbox;
  }, { timeoutMs: 60_000 });
  const started = await admin.send("startMaintenance", { params: { name: ready.nodeName! }, body: {} });
  drainRequestId = started.headers.get("x-request-id");
  const run = (await started.json()) as { id: string };
  await eventually(async () => {
    if ((await admin.getMaintenance({ params: { id: run.id } })).state === "Running") throw new Error("the drain is still running");
  }, { timeoutMs: 90_000 });
  drained = ready;
  await eventually(() => {
    if (!log.some((line) => line.type === "Recovery" && line.reason === "Recovered")) throw new Error("no recovery logged yet");
  }, { timeoutMs: 60_000 });
}, 240_000);

afterAll(async () => {
  berth?.kill("SIGTERM");
  if (berth && berth.exitCode === null) await new Promise((resolve) => berth.once("exit", resolve));
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("the server's JSON log of a drain", () => {
  it("has a line for the request that started it: route, status, duration, person and request id", () => {
    expect(log.find((line) => line.requestId === drainRequestId)).toMatchObject({
      level: "info",
      component: "http",
      method: "POST",
      route: "/api/v1/nodes/{name}/maintenance",
      endpoint: "startMaintenance",
      status: 202,
      durationMs: expect.any(Number),
      person: expect.any(String),
    });
  });

  it("tells the eviction as a warning naming the sandbox, its namespace, the pod and the node", () => {
    expect(log.find((line) => line.type === "Disruption" && line.sandbox === "logged")).toMatchObject({
      level: "warn",
      component: "timeline",
      namespace: TEAM,
      disruptionReason: "NodeDrained",
      podUid: drained.podUid,
      node: drained.nodeName,
    });
  });

  it("tells the recovery with its replacement and how long it took", () => {
    expect(log.find((line) => line.type === "Recovery" && line.reason === "Recovered" && line.sandbox === "logged")).toMatchObject({
      replacementPodUid: expect.any(String),
      replacementNode: expect.any(String),
      recoveryDurationMs: expect.any(Number),
    });
  });

  it("gives a refusal a request id (in its problem+json) that the log has the request under", async () => {
    const refused = await admin.send("getSandbox", { params: { id: "00000000-0000-4000-8000-000000000000" } }).catch((error: unknown) => error as { requestId: string | null; status: number });
    const requestId = (refused as { requestId: string | null }).requestId;
    await eventually(() => {
      if (!log.some((line) => line.requestId === requestId)) throw new Error("not logged yet");
    });
    expect([(refused as { status: number }).status, log.find((line) => line.requestId === requestId)?.status]).toEqual([404, 404]);
  });

  it("never holds the bearer token that made the calls", () => {
    expect(JSON.stringify(log).includes(token)).toBe(false);
  });
});
