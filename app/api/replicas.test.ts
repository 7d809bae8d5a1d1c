import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import type { MaintenanceRun } from "@/lib/domain/maintenance.ts";
import type { Person } from "@/lib/domain/person.ts";
import type { SandboxRecord } from "@/lib/domain/sandbox-record.ts";
import type { TimelineEvent } from "@/lib/domain/timeline.ts";
import { platformAdmin } from "@/lib/sandboxes/driver-suite/suite-world.ts";
import { startClusterUnderTest, type ClusterUnderTest } from "@/lib/sandboxes/testing/cluster-under-test.ts";
import { operator } from "@/lib/sandboxes/testing/operator.ts";
import { eventually } from "@/lib/sim/testing/eventually.ts";
import { openStore, type Store } from "@/lib/store/index.ts";
import { createPostgresDatabase, testStoreKind } from "@/lib/store/test-databases.ts";

// Three Berth replicas as processes of their own, each with its HTTP API behind an authenticating
// proxy, on one PostgreSQL database and one cluster — the embedded one (run here on its own), or
// the real control plane BERTH_TEST_KUBECONFIG names, as the chart's service account, electing
// their leader on a real Lease. A platform admin asks a follower to drain the first worker; the
// leader runs the maintenance, and is killed with SIGKILL in the middle of it while a sandbox's
// pod on the other worker is lost. Another replica takes over: it resumes the run and finishes
// it, and recovers the lost pod, once each. Every replica still standing has streamed every stored
// event over SSE, once each and in order, and a client whose replica died resumes on another.

const PUBLIC_URL = "http://berth.test";
const HOOK = ["sh", "-c", "echo saved > /sandbox/saved.txt"];
const NAMESPACE = "default";
const LEASE_NAMESPACE = process.env.BERTH_TEST_LEASE_NAMESPACE ?? NAMESPACE;
/** A real cluster outlives one run: every name is this run's own. */
const RUN = randomBytes(3).toString("hex");
const named = (base: string) => `${base}-${RUN}`;

interface Replica {
  process: ChildProcess;
  lines: string[];
  ready: Promise<void>;
  port: () => number;
  name: () => string;
}

/** An SSE client of one replica: the ids of the timeline events it got, in order. */
interface Follower {
  ids: string[];
  /** Resolves when the stream ends (its replica died, or it was closed). */
  ended: Promise<void>;
  close(): void;
}

let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
let cluster: ClusterUnderTest;
let ops: ReturnType<typeof operator>;
let admin: Person;
let work: string;
let store: Store;
let replicas: Replica[] = [];
let streams: Map<Replica, Follower>;
let resumed: Follower;
let killed: Replica;
let newLeader: Replica;
let moved: SandboxRecord[];
let lost: SandboxRecord;
let run: MaintenanceRun;
let timeline: TimelineEvent[];

function startReplica(name: string): Replica {
  const script = path.join(import.meta.dirname, "testing", "replica-process.ts");
  const child = spawn(process.execPath, ["--import", "tsx", script], {
    stdio: ["ignore", "pipe", "inherit"],
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      KUBECONFIG: cluster.kubeconfigPath!,
      BERTH_AUTH_MODE: "proxy",
      BERTH_PROXY_TRUSTED_ADDRESSES: "127.0.0.1",
      BERTH_PUBLIC_URL: PUBLIC_URL,
      BERTH_NAMESPACES: NAMESPACE,
      BERTH_LEADER_ELECTION_NAMESPACE: LEASE_NAMESPACE,
      BERTH_LEADER_ELECTION_LEASE: named("berth-replicas"),
      // Shorter than client-go's 15/10/2 s, so that the lease of the killed leader runs out soon.
      BERTH_LEADER_ELECTION_LEASE_DURATION_SECONDS: "3",
      BERTH_LEADER_ELECTION_RENEW_DEADLINE_SECONDS: "2",
      BERTH_LEADER_ELECTION_RETRY_PERIOD_SECONDS: "0.5",
      BERTH_DATA_DIR: path.join(work, name),
    },
  });
  const lines: string[] = [];
  const ready = new Promise<void>((resolve) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      lines.push(line);
      if (line === "ready") resolve();
    });
  });
  const said = (prefix: string) => lines.find((line) => line.startsWith(`${prefix} `))?.slice(prefix.length + 1) ?? "";
  return { process: child, lines, ready, port: () => Number(said("http")), name: () => said("replica") };
}

const leaderTerms = (replica: Replica) => replica.lines.filter((line) => line.startsWith("leading ")).map((line) => Number(line.split(" ")[1]));
const leads = (replica: Replica) => replica.lines.findLast((line) => line.startsWith("leading ") || line.startsWith("follows "))?.startsWith("leading") ?? false;
const standing = () => replicas.filter((replica) => replica !== killed);

/** What the proxy in front of the replicas says about the platform admin. */
const asAdmin = () => ({ "x-remote-user": admin.username, "x-remote-group": admin.groups.join(",") });

/** A call to one replica's API, as a browser on Berth's page sends it through the proxy. */
async function call(replica: Replica, method: string, pathname: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`http://127.0.0.1:${replica.port()}${pathname}`, {
    method,
    headers: { ...asAdmin(), ...(body === undefined ? {} : { "content-type": "application/json", origin: PUBLIC_URL }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : null };
}

function follow(replica: Replica, lastEventId: string): Follower {
  const closing = new AbortController();
  const ids: string[] = [];
  const ended = (async () => {
    const response = await fetch(`http://127.0.0.1:${replica.port()}/api/v1/events`, { headers: { ...asAdmin(), "Last-Event-ID": lastEventId }, signal: closing.signal });
    if (!response.ok || !response.body) throw new Error(`the event stream answered ${response.status}`);
    let buffer = "";
    for await (const chunk of response.body.pipeThrough(new TextDecoderStream())) {
      buffer += chunk;
      for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
        const fields = Object.fromEntries(buffer.slice(0, end).split("\n").map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trim()]));
        buffer = buffer.slice(end + 2);
        if (fields.event === "timeline") ids.push(fields.id!);
        if (fields.event === "reload") throw new Error("the stream asked for a reload: too far behind to replay");
      }
    }
  })().catch((error: unknown) => {
    // Ended by its replica's death or by close(): the ids got so far are what it got.
    if ((error as Error).name !== "AbortError" && !String((error as Error).message).includes("terminated")) throw error;
  });
  return { ids, ended, close: () => closing.abort() };
}

async function recordWhen(id: string, check: (record: SandboxRecord) => boolean): Promise<SandboxRecord> {
  return eventually(async () => {
    const record = await store.sandboxes.getSandbox(id);
    if (!record || !check(record)) throw new Error(`${record?.name}: ${record?.phase} (${record?.message})`);
    return record;
  }, { timeoutMs: cluster.patienceMs * 3, intervalMs: 100 });
}

/**
 * A sandbox made through the replica's API, once it is Ready: its workspace on portable storage
 * (it can move); its checkpoint hook saves its work, and where no command can run in a container
 * (kwok's nodes), the run goes on without it.
 */
async function readySandbox(replica: Replica, name: string): Promise<SandboxRecord> {
  const made = await call(replica, "POST", "/api/v1/sandboxes", {
    name: named(name),
    namespace: NAMESPACE,
    workspace: { claim: { storageClassName: cluster.storageClasses.portable } },
    disruptionPolicy: { checkpointHook: HOOK, checkpointFailurePolicy: "Proceed", terminationGracePeriodSeconds: 3, checkpointGracePeriodSeconds: 2 },
  });
  if (made.status !== 201) throw new Error(`create ${name}: ${made.status} ${JSON.stringify(made.json)}`);
  return recordWhen((made.json as SandboxRecord).id, (now) => now.phase === "Ready");
}

const eventsOf = (sandboxId: string | null, reason: string) => timeline.filter((event) => event.sandboxId === sandboxId && event.reason === reason && (sandboxId !== null || event.data.runId === run.id));

describe.runIf(testStoreKind === "postgresql")("three replicas on one PostgreSQL database and one cluster", () => {
  beforeAll(async () => {
    database = await createPostgresDatabase();
    work = mkdtempSync(path.join(tmpdir(), "berth-replicas-"));
    cluster = await startClusterUnderTest({ dataDir: path.join(work, "cluster"), clockScale: 20 });
    ops = operator(cluster.operatorConnection);
    admin = await platformAdmin({ cluster, named });
    const [drained, other] = cluster.workers;
    store = await openStore({ kind: "postgresql", databaseUrl: database.url });
    replicas = ["replica-a", "replica-b", "replica-c"].map(startReplica);
    await Promise.all(replicas.map((replica) => replica.ready));
    await eventually(() => expect(replicas.filter(leads)).toHaveLength(1), { timeoutMs: 30_000 });
    // Every event from the first, on every replica.
    streams = new Map(replicas.map((replica) => [replica, follow(replica, "0")]));

    // Commands go to a follower, as any replica serves them: two sandboxes on the worker to be
    // drained, one on the other.
    const follower = replicas.find((replica) => !leads(replica))!;
    await ops.cordon(other);
    moved = [await readySandbox(follower, "moved-1"), await readySandbox(follower, "moved-2")];
    await ops.uncordon(other);
    await ops.cordon(drained);
    lost = await readySandbox(follower, "lost-with-the-leader");
    await ops.uncordon(drained);
    await eventually(async () => {
      const preview = await call(follower, "GET", `/api/v1/nodes/${drained}/maintenance/preview`);
      expect((preview.json as { otherSchedulableNodes: string[] }).otherSchedulableNodes).toEqual([other]);
    }, { timeoutMs: cluster.patienceMs });

    const asked = await call(follower, "POST", `/api/v1/nodes/${drained}/maintenance`, { parallelism: 1, replacementTimeoutSeconds: 300 });
    if (asked.status !== 202) throw new Error(`maintenance: ${asked.status} ${JSON.stringify(asked.json)}`);
    const runId = (asked.json as MaintenanceRun).id;
    // Killed in the middle: once every sandbox is checkpointed and the first is being moved. (A
    // checkpoint the kill cut short would be taken again by the next leader, which is right, but
    // not what this looks at.)
    const moving = (step: string) => step === "Evicting" || step === "Evicted";
    await eventually(async () => {
      const steps = (await store.maintenance.getRun(runId))?.progress.sandboxes.map((entry) => entry.step) ?? [];
      if (!steps.some(moving) || !steps.every((step) => step === "Checkpointed" || moving(step))) throw new Error(`not all checkpointed and one moving yet: ${JSON.stringify(steps)}`);
    }, { timeoutMs: cluster.patienceMs * 3, intervalMs: 20 });
    killed = replicas.find(leads)!;
    const exited = once(killed.process, "exit");
    killed.process.kill("SIGKILL");
    await exited;
    await ops.deletePod({ namespace: NAMESPACE, name: lost.name });

    // A client of the killed replica reconnects to another, from the last event it got.
    await streams.get(killed)!.ended;
    resumed = follow(standing()[0]!, streams.get(killed)!.ids.at(-1) ?? "0");

    run = await eventually(async () => {
      const now = await store.maintenance.getRun(runId);
      if (!now || now.state === "Running") throw new Error(`still running: ${JSON.stringify(now?.progress.sandboxes.map((entry) => entry.step))}`);
      return now;
    }, { timeoutMs: cluster.patienceMs * 6, intervalMs: 200 });
    await recordWhen(lost.id, (now) => now.phase === "Ready" && now.podUid !== lost.podUid);
    // The status is saved before the timeline is told: wait for the recovery's event too.
    await eventually(async () => {
      const told = await store.timeline.listForSandbox(lost.id, { limit: 1_000 });
      if (!told.some((event) => event.reason === "Recovered")) throw new Error(`no recovery on the timeline yet: ${told.map((event) => event.reason).join(", ")}`);
    }, { timeoutMs: cluster.patienceMs });
    newLeader = standing().find(leads)!;
    // Whatever the new leader stored last reaches every stream.
    await eventually(async () => {
      timeline = await store.timeline.listAfter({ limit: 10_000 });
      const all = timeline.map((event) => event.id);
      expect(standing().map((replica) => streams.get(replica)!.ids)).toEqual(standing().map(() => all));
      expect([...streams.get(killed)!.ids, ...resumed.ids]).toEqual(all);
    }, { timeoutMs: 15_000 });
  }, 600_000);

  afterAll(async () => {
    for (const follower of [...(streams?.values() ?? []), resumed]) follower?.close();
    // A real cluster outlives the run: its sandboxes go through Berth's own delete, its nodes are uncordoned.
    const still = standing()[0];
    for (const record of still && store ? await store.sandboxes.listAllLive() : []) await call(still!, "DELETE", `/api/v1/sandboxes/${record.id}`).catch(() => {});
    for (const worker of cluster?.workers ?? []) await ops?.uncordon(worker).catch(() => {});
    await Promise.all(replicas.map(async (replica) => {
      if (replica.process.exitCode !== null || replica.process.signalCode !== null) return;
      const exited = once(replica.process, "exit");
      replica.process.kill("SIGTERM");
      await exited;
    }));
    await store?.close();
    await cluster?.stop();
    await database?.drop();
    if (work) rmSync(work, { recursive: true, force: true });
  }, 120_000);

  it("has another replica take over the Lease, in a later term", () => {
    expect(Math.max(...leaderTerms(newLeader))).toBeGreaterThan(Math.max(...leaderTerms(killed)));
  });

  it("runs the maintenance on the leader, not on the follower that was asked", () => {
    expect(eventsOf(null, "MaintenanceStarted")).toHaveLength(1);
  });

  it("has the new leader resume the maintenance and finish it, once", () => {
    expect([run.state, run.attempts, run.runBy, eventsOf(null, "MaintenanceResumed").length, eventsOf(null, "MaintenanceSucceeded").length]).toEqual(["Succeeded", 2, newLeader.name(), 1, 1]);
  });

  it("checkpoints each maintained sandbox exactly once", async () => {
    const made = await Promise.all(moved.map(async (sandbox) => (await store.checkpoints.listCheckpoints(sandbox.id)).length));
    expect(made).toEqual([1, 1]);
  });

  it("saves each maintained sandbox's work before it moves", async (context: TestContext) => {
    if (cluster.execUnavailable) context.skip(cluster.execUnavailable);
    const results = await Promise.all(moved.map(async (sandbox) => (await store.checkpoints.listCheckpoints(sandbox.id)).map((one) => one.result)));
    expect(results).toEqual([["Succeeded"], ["Succeeded"]]);
  });

  it("moves each maintained sandbox to the other worker", async () => {
    const now = await Promise.all(moved.map((sandbox) => store.sandboxes.getSandbox(sandbox.id)));
    expect(now.map((record) => [record?.phase, record?.nodeName])).toEqual(moved.map(() => ["Ready", cluster.workers[1]]));
  });

  it("recovers the pod lost while the leader died exactly once", () => {
    expect(eventsOf(lost.id, "Recovered")).toHaveLength(1);
  });

  it("writes no change of the lost sandbox twice", () => {
    // Written twice, a change follows itself; the same words may come back later (A, B, A) as the sandbox changes.
    const told = timeline.filter((event) => event.sandboxId === lost.id).map((event) => `${event.reason}: ${event.message}`);
    expect(told.filter((one, index) => index > 0 && told[index - 1] === one)).toEqual([]);
  });

  it("streams every stored event from every replica still standing, once each and in id order", () => {
    expect(standing().map((replica) => streams.get(replica)!.ids)).toEqual(standing().map(() => timeline.map((event) => event.id)));
  });

  it("resumes the stream of a client whose replica died on another, with nothing lost or repeated", () => {
    expect([...streams.get(killed)!.ids, ...resumed.ids]).toEqual(timeline.map((event) => event.id));
  });
});
