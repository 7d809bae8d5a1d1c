// Several replicas: how soon an event stored through one replica reaches another's live timeline
// (PostgreSQL only: the embedded store is one process's), and how long the replicas are without a
// writer when the leader stops — SIGTERM, so it releases the Lease — or is killed with SIGKILL, so
// the others wait out its lease. Leader election runs with client-go's timings (15 s lease, 10 s
// renew deadline, 2 s retry), each candidate a process of its own on the embedded cluster.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { TimelineFeed } from "../lib/events/timeline-feed.ts";
import { kubeconfigPath, startSimulatedCluster } from "../lib/sim/index.ts";
import { openStore } from "../lib/store/index.ts";

const EVENTS = 300;
const FAILOVERS = 3;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

const summary = (durations: number[]) => {
  const sorted = [...durations].sort((a, b) => a - b);
  return { runs: sorted.length, medianMs: percentile(sorted, 0.5), p99Ms: percentile(sorted, 0.99), worstMs: sorted.at(-1)! };
};

/** Events appended through one store, one after another, timed until another store's feed publishes each. */
export async function benchCrossReplicaDelivery(postgresUrl: string) {
  const writer = await openStore({ kind: "postgresql", databaseUrl: postgresUrl });
  const reader = await openStore({ kind: "postgresql", databaseUrl: postgresUrl });
  // The poll stays out of it: NOTIFY alone brings each event.
  const feed = new TimelineFeed(reader.timeline, { pollMs: 60_000 });
  const waiting = new Map<string, () => void>();
  const seen = new Set<string>();
  feed.subscribe((event) => {
    seen.add(event.id);
    waiting.get(event.id)?.();
  });
  await feed.start();
  const latencies: number[] = [];
  try {
    for (let i = 0; i < EVENTS; i++) {
      const began = performance.now();
      const stored = await writer.timeline.appendEvent({ sandboxId: null, type: "Lifecycle", reason: "Ready", message: `bench ${i}`, occurredAt: new Date() });
      if (!seen.has(stored.id)) await new Promise<void>((resolve) => waiting.set(stored.id, resolve));
      latencies.push(performance.now() - began);
      waiting.delete(stored.id);
    }
  } finally {
    feed.stop();
    await Promise.all([writer.close(), reader.close()]);
  }
  return { events: EVENTS, ...summary(latencies) };
}

/**
 * The same, all the way to a browser: events appended through one store, timed until another
 * replica — a process of its own, serving the API over HTTP — has sent each on its event stream.
 */
export async function benchSseDelivery(postgresUrl: string) {
  const work = mkdtempSync(path.join(tmpdir(), "berth-bench-sse-"));
  const sim = await startSimulatedCluster({ dataDir: path.join(work, "cluster") });
  const writer = await openStore({ kind: "postgresql", databaseUrl: postgresUrl });
  const replica = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "..", "app", "api", "testing", "replica-process.ts")], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, DATABASE_URL: postgresUrl, KUBECONFIG: kubeconfigPath(path.join(work, "cluster")), BERTH_AUTH_MODE: "none", BERTH_PUBLIC_URL: "http://berth.bench", BERTH_DATA_DIR: path.join(work, "replica") },
  });
  const lines = createInterface({ input: replica.stdout! });
  const port = await new Promise<number>((resolve) => lines.on("line", (line) => line.startsWith("http ") && resolve(Number(line.slice(5)))));
  const stream = new AbortController();
  const latencies: number[] = [];
  try {
    const response = await fetch(`http://127.0.0.1:${port}/api/v1/events`, { signal: stream.signal });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    /** Reads the stream until the event with this id has come. */
    const until = async (id: string) => {
      while (!buffer.includes(`id: ${id}\n`)) {
        const { value, done } = await reader.read();
        if (done) throw new Error("the event stream ended");
        buffer += value;
      }
      buffer = buffer.slice(buffer.indexOf(`id: ${id}\n`) + 1);
    };
    for (let i = 0; i < EVENTS; i++) {
      const began = performance.now();
      const stored = await writer.timeline.appendEvent({ sandboxId: null, type: "Lifecycle", reason: "Ready", message: `bench ${i}`, occurredAt: new Date() });
      await until(stored.id);
      latencies.push(performance.now() - began);
    }
  } finally {
    stream.abort();
    await stopProcess(replica, "SIGTERM");
    await writer.close();
    await sim.stop();
    rmSync(work, { recursive: true, force: true });
  }
  return { events: EVENTS, ...summary(latencies) };
}

interface Candidate {
  process: ChildProcess;
  /** Resolves with the time (performance.now()) this candidate said it leads. */
  leads: Promise<number>;
}

function startCandidate(server: string, token: string, lease: string, identity: string): Candidate {
  const script = path.join(import.meta.dirname, "leader-candidate.ts");
  const child = spawn(process.execPath, ["--import", "tsx", script, server, token, "default", lease, identity], { stdio: ["ignore", "pipe", "inherit"] });
  const leads = new Promise<number>((resolve) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      if (line.startsWith("leading")) resolve(performance.now());
    });
  });
  return { process: child, leads };
}

async function stopProcess(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill(signal);
  await exited;
}

/** Leader stopped (`SIGTERM`) or killed (`SIGKILL`) → the other candidate leads, each run on a Lease of its own. */
export async function benchFailover() {
  const sim = await startSimulatedCluster({ clockScale: 1 });
  const failovers: Record<"released" | "killed", number[]> = { released: [], killed: [] };
  try {
    for (const [how, signal] of [["released", "SIGTERM"], ["killed", "SIGKILL"]] as const) {
      for (let run = 0; run < FAILOVERS; run++) {
        const lease = `bench-${how}-${run}`;
        const candidates = ["replica-a", "replica-b"].map((identity) => startCandidate(sim.serverUrl, sim.adminToken, lease, identity));
        try {
          const first = await Promise.race(candidates.map((candidate, index) => candidate.leads.then(() => index)));
          const leader = candidates[first]!;
          const follower = candidates[1 - first]!;
          const stoppedAt = performance.now();
          await stopProcess(leader.process, signal);
          failovers[how].push((await follower.leads) - stoppedAt);
        } finally {
          await Promise.all(candidates.map((candidate) => stopProcess(candidate.process, "SIGKILL")));
        }
      }
    }
  } finally {
    await sim.stop();
  }
  return { released: summary(failovers.released), killed: summary(failovers.killed) };
}
