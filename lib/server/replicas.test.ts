import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anActor } from "../domain/test-fixtures.ts";
import { gatewayDefaultsSchema } from "../domain/gateway-defaults.ts";
import type { SandboxRecord } from "../domain/sandbox-record.ts";
import type { TimelineEvent } from "../domain/timeline.ts";
import { connectToEmbeddedCluster } from "../kube/cluster-connection.ts";
import { sandboxResources } from "../kube/sandbox-resources.ts";
import { createSandbox } from "../sandboxes/create-sandbox.ts";
import { OperationsInFlight } from "../sandboxes/operations-in-flight.ts";
import { kubeconfigPath, startSimulatedCluster, type SimCluster } from "../sim/index.ts";
import { eventually } from "../sim/testing/eventually.ts";
import { openStore, type Store } from "../store/index.ts";
import { createPostgresDatabase, testStoreKind } from "../store/test-databases.ts";

// Three Berth replicas as processes of their own, on one PostgreSQL database and one cluster (the
// embedded one, run here on its own): one leads; the leader is killed with SIGKILL while a
// sandbox's pod is lost; another takes over and recovers it — once — and every replica still
// standing has published every stored event, once each and in order.

interface Replica {
  name: string;
  process: ChildProcess;
  lines: string[];
  ready: Promise<void>;
}

let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
let sim: SimCluster;
let work: string;
let store: Store;
let replicas: Replica[];
let killed: Replica;
let lost: SandboxRecord;
let timeline: TimelineEvent[];

function startReplica(name: string): Replica {
  const script = path.join(import.meta.dirname, "testing", "replica-process.ts");
  const child = spawn(process.execPath, ["--import", "tsx", script], {
    stdio: ["ignore", "pipe", "inherit"],
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      KUBECONFIG: kubeconfigPath(path.join(work, "cluster")),
      BERTH_AUTH_MODE: "none",
      BERTH_NAMESPACES: "default",
      BERTH_LEADER_ELECTION_NAMESPACE: "default",
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
  return { name, process: child, lines, ready };
}

const eventIds = (replica: Replica) => replica.lines.filter((line) => line.startsWith("event ")).map((line) => line.split(" ")[1]!);
const leaderTerms = (replica: Replica) => replica.lines.filter((line) => line.startsWith("leading ")).map((line) => Number(line.split(" ")[1]));
const leads = (replica: Replica) => replica.lines.findLast((line) => line.startsWith("leading ") || line.startsWith("follows "))?.startsWith("leading") ?? false;

async function recordWhen(id: string, check: (record: SandboxRecord) => boolean): Promise<SandboxRecord> {
  return eventually(async () => {
    const record = await store.sandboxes.getSandbox(id);
    if (!record || !check(record)) throw new Error(`${record?.name}: ${record?.phase} (${record?.message})`);
    return record;
  }, { timeoutMs: 90_000, intervalMs: 100 });
}

describe.runIf(testStoreKind === "postgresql")("three replicas on one PostgreSQL database and one cluster", () => {
  beforeAll(async () => {
    database = await createPostgresDatabase();
    work = mkdtempSync(path.join(tmpdir(), "berth-replicas-"));
    sim = await startSimulatedCluster({ dataDir: path.join(work, "cluster"), clockScale: 20 });
    store = await openStore({ kind: "postgresql", databaseUrl: database.url });
    replicas = ["replica-a", "replica-b", "replica-c"].map(startReplica);
    await Promise.all(replicas.map((replica) => replica.ready));
    await eventually(() => expect(replicas.filter(leads)).toHaveLength(1), { timeoutMs: 30_000 });

    // A command, as any replica serves one: made here, on the same store and cluster.
    const connection = connectToEmbeddedCluster(sim.serverUrl, sim.adminToken);
    const deps = {
      store, connection, resources: sandboxResources(connection, "v1beta1"), sandboxApiVersion: "v1beta1" as const, defaults: gatewayDefaultsSchema.parse({}),
      inFlight: new OperationsInFlight({ kind: "lifecycle", replica: "test-command", operations: store.operations }),
    };
    const { record } = await createSandbox(deps, { name: "kept-through-failover" }, anActor("alice"));
    lost = await recordWhen(record.id, (now) => now.phase === "Ready");

    killed = replicas.find(leads)!;
    const exited = once(killed.process, "exit");
    killed.process.kill("SIGKILL");
    await exited;
    await fetch(`${sim.serverUrl}/api/v1/namespaces/default/pods/${lost.name}?gracePeriodSeconds=0`, { method: "DELETE", headers: { Authorization: `Bearer ${sim.adminToken}` } });
    await recordWhen(lost.id, (now) => now.phase === "Ready" && now.podUid !== lost.podUid);
    // The status is saved before the timeline is told: wait for the recovery's event too.
    await eventually(async () => {
      const told = await store.timeline.listForSandbox(lost.id, { limit: 1_000 });
      if (!told.some((event) => event.reason === "Recovered")) throw new Error(`no recovery on the timeline yet: ${told.map((event) => event.reason).join(", ")}`);
    }, { timeoutMs: 30_000 });
    // Whatever the new leader stored last reaches every replica's feed.
    const standing = replicas.filter((replica) => replica !== killed);
    await eventually(async () => {
      timeline = await store.timeline.listAfter({ limit: 10_000 });
      expect(standing.map(eventIds)).toEqual(standing.map(() => timeline.map((event) => event.id)));
    }, { timeoutMs: 10_000 });
  }, 240_000);

  afterAll(async () => {
    await Promise.all((replicas ?? []).map(async (replica) => {
      if (replica.process.exitCode !== null || replica.process.signalCode !== null) return;
      const exited = once(replica.process, "exit");
      replica.process.kill("SIGTERM");
      await exited;
    }));
    await store?.close();
    await sim?.stop();
    await database?.drop();
    if (work) rmSync(work, { recursive: true, force: true });
  }, 60_000);

  it("has another replica take over the Lease, in a later term", () => {
    const standing = replicas.filter((replica) => replica !== killed);
    const newLeader = standing.find(leads)!;
    expect(Math.max(...leaderTerms(newLeader))).toBeGreaterThan(Math.max(...leaderTerms(killed)));
  });

  it("recovers the pod lost while the leader died exactly once", () => {
    const told = timeline.filter((event) => event.sandboxId === lost.id);
    expect(told.filter((event) => event.reason === "Recovered"), told.map((event) => `${event.reason}: ${event.message}`).join("\n")).toHaveLength(1);
  });

  it("writes no change of the sandbox twice", () => {
    const told = timeline.filter((event) => event.sandboxId === lost.id).map((event) => `${event.reason}: ${event.message}`);
    expect(told.filter((one, index) => told.indexOf(one) !== index)).toEqual([]);
  });

  it("gives every replica still standing every stored event, once each and in id order", () => {
    const standing = replicas.filter((replica) => replica !== killed);
    expect(standing.map(eventIds)).toEqual(standing.map(() => timeline.map((event) => event.id)));
  });
});
