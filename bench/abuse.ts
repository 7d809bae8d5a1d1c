// `npm run bench:abuse`: what one abusive client costs everyone else, against a production build
// (run `npx next build` first) on its embedded defaults. Fixed workloads, printed as tables:
//   - a 100 MB request body: how long until it is refused, and the server's memory after;
//   - 300 event streams all replaying from Last-Event-ID 0 at once, over the
//     few hundred events 200 sandboxes leave (the worst case: 300 people, so the per-person
//     stream cap does not apply), read by this process at the lowest CPU priority;
//   - /api/health, probed every 20 ms throughout: median and p99, against a quiet baseline.
import { spawn } from "node:child_process";
import { request as httpRequest } from "node:http";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { setPriority, tmpdir } from "node:os";
import path from "node:path";
import { signInAs, startConsole, stopConsole, waitFor } from "./console-server.ts";

const PORT = Number(process.env.BERTH_BENCH_PORT ?? 3291);
const BASE = `http://127.0.0.1:${PORT}`;
const SANDBOXES = 200;
const STREAMS = 300;
const BODY_BYTES = 100 * 1024 * 1024;
const PROBE_EVERY_MS = 20;

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

/** Resident memory of the server process and its children (next start runs the server in a child). */
function serverRssMiB(pid: number): number {
  const children = (readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean)).map(Number);
  const rss = (one: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${one}/status`, "utf8"))?.[1] ?? 0) / 1024;
  return [pid, ...children.flatMap((child) => [child, ...readFileSync(`/proc/${child}/task/${child}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number)])].reduce((sum, one) => sum + rss(one), 0);
}

/**
 * Probes /api/health every PROBE_EVERY_MS until stopped, from a process of its own: the streams
 * this process reads keep its own event loop busy, which would be counted against the server.
 */
async function probeHealth() {
  const script = `
    const latencies = [];
    let running = true;
    process.on("SIGTERM", () => (running = false));
    (async () => {
      // The first fetch of a process sets up its HTTP client (tens of milliseconds of its own): not the server's time.
      await fetch(${JSON.stringify(`${BASE}/api/health`)}).then((r) => r.arrayBuffer()).catch(() => undefined);
      process.stdout.write("ready\\n");
      while (running) {
        const began = performance.now();
        await fetch(${JSON.stringify(`${BASE}/api/health`)}).then((r) => r.arrayBuffer()).catch(() => undefined);
        latencies.push(performance.now() - began);
        await new Promise((resolve) => setTimeout(resolve, ${PROBE_EVERY_MS}));
      }
      process.stdout.write(JSON.stringify(latencies));
    })();`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  let output = "";
  const exited = new Promise((resolve) => child.once("exit", resolve));
  await new Promise<void>((resolve) => {
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.startsWith("ready\n")) resolve();
    });
    child.once("exit", () => resolve());
  });
  return {
    async stop() {
      child.kill("SIGTERM");
      await exited;
      const latencies = JSON.parse(output.replace(/^ready\n/, "") || "[]") as number[];
      return { median: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), count: latencies.length };
    },
  };
}

/** Sends `bytes` of body with its length declared, as fast as the server takes it; the status and how long until the answer. */
function hugeBody(header: Record<string, string>, bytes: number): Promise<{ status: number; ms: number }> {
  return new Promise((resolve) => {
    const began = performance.now();
    const request = httpRequest(`${BASE}/api/v1/sandboxes`, { method: "POST", headers: { ...header, "content-type": "application/json", "content-length": String(bytes) } }, (response) => {
      response.resume();
      resolve({ status: response.statusCode ?? 0, ms: performance.now() - began });
      request.destroy();
    });
    // The server may close the connection on a body it refuses before it answers: that is a refusal too.
    request.on("error", () => resolve({ status: 0, ms: performance.now() - began }));
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < bytes && !request.destroyed) {
        sent += chunk.length;
        if (!request.write(chunk)) return request.once("drain", pump);
      }
      if (!request.destroyed) request.end();
    };
    pump();
  });
}

/**
 * Counts the timeline events of a stream as its chunks come, an event split across two chunks
 * counted once. It looks for the bytes of the event line, decoding nothing: reading 300 streams
 * must cost this process little, or it would take the CPU the measured server needs.
 */
function timelineEventCounter() {
  const marker = Buffer.from("\nevent: timeline\n");
  let tail = Buffer.alloc(0);
  let seen = 0;
  return {
    add(chunk: Uint8Array) {
      const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      // A marker across the boundary: in the previous chunk's last bytes and this one's first.
      const seam = Buffer.concat([tail, bytes.subarray(0, marker.length - 1)]);
      for (let at = seam.indexOf(marker); at !== -1; at = seam.indexOf(marker, at + 1)) if (at + marker.length > tail.length) seen += 1;
      for (let at = bytes.indexOf(marker); at !== -1; at = bytes.indexOf(marker, at + marker.length)) seen += 1;
      tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - (marker.length - 1))));
      return seen;
    },
  };
}

/** Opens an event stream from Last-Event-ID 0 and reads it until `events` timeline events arrived (or it ends). */
async function replayingStream(header: Record<string, string>, events: number, signal: AbortSignal): Promise<number> {
  const response = await fetch(`${BASE}/api/v1/events`, { headers: { ...header, "last-event-id": "0" }, signal });
  if (!response.ok || !response.body) return 0;
  const reader = response.body.getReader();
  const counter = timelineEventCounter();
  let seen = 0;
  while (seen < events) {
    const { done, value } = await reader.read();
    if (done) break;
    seen = counter.add(value);
  }
  await reader.cancel().catch(() => {});
  return seen;
}

/** How many events a replay from 0 holds now: read until the stream has been quiet for a second. */
async function historySize(header: Record<string, string>): Promise<number> {
  const abort = new AbortController();
  const response = await fetch(`${BASE}/api/v1/events`, { headers: { ...header, "last-event-id": "0" }, signal: abort.signal });
  const reader = response.body!.getReader();
  const counter = timelineEventCounter();
  let seen = 0;
  for (;;) {
    const next = await Promise.race([reader.read(), new Promise<null>((resolve) => setTimeout(() => resolve(null), 1_000))]);
    if (next === null || next.done) break;
    seen = counter.add(next.value);
  }
  abort.abort();
  return seen;
}

/** Progress on stderr, so that a slow phase is seen as it happens; the tables go to stdout. */
const phase = (what: string) => console.error(`[bench:abuse ${new Date().toISOString().slice(11, 19)}] ${what}`);
/** No phase may hang the bench: the replay gives up after this long, counting what it got. */
const REPLAY_DEADLINE_MS = 120_000;

const dataDir = mkdtempSync(path.join(tmpdir(), "berth-bench-abuse-"));
const server = startConsole(BASE, dataDir, { BERTH_STREAMS_PER_PERSON: String(STREAMS * 2), BERTH_CREATES_PER_MINUTE: "100000", BERTH_MAX_SANDBOXES_PER_NAMESPACE: String(SANDBOXES * 2) });
try {
  await waitFor("the console", async () => ((await fetch(`${BASE}/api/health`)).ok ? true : undefined));
  const { header } = await signInAs(BASE, "paula@berth.example");

  // History to replay: sandboxes made and brought to Ready, each leaving its events.
  phase(`creating ${SANDBOXES} sandboxes`);
  await Promise.all(
    Array.from({ length: SANDBOXES }, async (_, index) => {
      const created = await fetch(`${BASE}/api/v1/sandboxes`, { method: "POST", headers: { ...header, "content-type": "application/json" }, body: JSON.stringify({ name: `abuse-${index}`, workspace: { backend: "ephemeral" } }) });
      if (created.status !== 201) throw new Error(`create answered ${created.status}: ${await created.text()}`);
    }),
  );
  await waitFor("every sandbox Ready", async () => {
    const page = (await (await fetch(`${BASE}/api/v1/sandboxes?limit=500`, { headers: header })).json()) as { items: { phase: string }[] };
    return page.items.filter((item) => item.phase === "Ready").length >= SANDBOXES ? true : undefined;
  });
  const events = await historySize(header);
  phase(`${events} events to replay; probing /api/health while quiet`);

  const quiet = await probeHealth();
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const baseline = await quiet.stop();

  phase(`sending a ${BODY_BYTES / 1024 / 1024} MB body`);
  const underBody = await probeHealth();
  await new Promise((resolve) => setTimeout(resolve, 500));
  const rssBefore = serverRssMiB(server.pid!);
  const body = await hugeBody(header, BODY_BYTES);
  const rssAfter = serverRssMiB(server.pid!);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const duringBody = await underBody.stop();

  phase(`opening ${STREAMS} streams replaying from Last-Event-ID 0`);
  const underStreams = await probeHealth();
  await new Promise((resolve) => setTimeout(resolve, 500));
  const abort = new AbortController();
  const deadline = setTimeout(() => abort.abort(), REPLAY_DEADLINE_MS);
  // The readers run here, on the machine's few cores, where in a cluster they would be other
  // machines: this process gives way, so that what is measured is the server, not its clients.
  setPriority(19);
  const began = performance.now();
  const replayed = await Promise.all(Array.from({ length: STREAMS }, () => replayingStream(header, events, abort.signal).catch(() => 0)));
  const replayMs = performance.now() - began;
  clearTimeout(deadline);
  abort.abort();
  const duringStreams = await underStreams.stop();

  console.log(`Berth under abuse — node ${process.version}, ${new Date().toISOString()}\n`);
  console.log(`| workload | result |\n|---|---|`);
  console.log(`| ${BODY_BYTES / 1024 / 1024} MB body, length declared, POST /api/v1/sandboxes | ${body.status} after ${body.ms.toFixed(0)} ms; server RSS ${rssBefore.toFixed(0)} → ${rssAfter.toFixed(0)} MiB |`);
  console.log(`| ${STREAMS} streams replaying from Last-Event-ID 0 (${events} events each) | all replayed in ${(replayMs / 1000).toFixed(1)} s; ${replayed.filter((seen) => seen >= events).length} of ${STREAMS} complete |`);
  console.log(`\n| /api/health, probed every ${PROBE_EVERY_MS} ms | probes | median ms | p99 ms |\n|---|---:|---:|---:|`);
  for (const [name, figures] of [["quiet", baseline], ["during the 100 MB body", duringBody], [`during ${STREAMS} replaying streams`, duringStreams]] as const) {
    console.log(`| ${name} | ${figures.count} | ${figures.median.toFixed(1)} | ${figures.p99.toFixed(1)} |`);
  }
} finally {
  stopConsole(server);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 500 });
}
