// Several replicas: how soon an event stored through one replica reaches another's live timeline
// (PostgreSQL only: the embedded store is one process's), and how long the replicas are without a
// writer when the leader stops — SIGTERM, so it releases the Lease — or is killed with SIGKILL, so
// the others wait out its lease. Leader election runs with client-go's timings (15 s lease, 10 s
// renew deadline, 2 s retry), each candidate a process of its own on the embedded cluster.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { createInterface } from "node:readline";
import { TimelineFeed } from "../lib/events/timeline-feed.ts";
import { startSimulatedCluster } from "../lib/sim/index.ts";
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
