// `npm run bench`: fixed workloads, medians and ratios, printed as tables.
// Set BERTH_BENCH_DATABASE_URL (or BERTH_TEST_DATABASE_URL) to compare PGlite with PostgreSQL.
import { benchAccess } from "./access.bench.ts";
import { benchDisruption } from "./disruption.bench.ts";
import { benchLifecycle } from "./lifecycle.bench.ts";
import { benchMaintenance } from "./maintenance.bench.ts";
import { benchCrossReplicaDelivery, benchFailover, benchSseDelivery } from "./replicas.bench.ts";
import { ms } from "./measure.ts";
import { benchSimulatedCluster } from "./sim.bench.ts";
import { benchStore } from "./store.bench.ts";
import { benchTemplates } from "./templates.bench.ts";

const postgresUrl = process.env.BERTH_BENCH_DATABASE_URL ?? process.env.BERTH_TEST_DATABASE_URL;

console.log(`Berth benchmarks — node ${process.version}, ${new Date().toISOString()}\n`);

const sim = await benchSimulatedCluster();
console.log(`Simulated cluster (run first, in a fresh process): 10,000 sandboxes (Sandbox + pod + claim + volume each) seeded in ${sim.seedMs.toFixed(0)} ms; memory for them: heap +${sim.heapMiB.toFixed(0)} MiB, RSS +${sim.rssMiB.toFixed(0)} MiB.\n`);
console.log("| simulated API request (client-node) | runs | median ms | p95 ms |\n|---|---:|---:|---:|");
for (const m of sim.measurements) console.log(`| ${m.name} | ${m.runs} | ${ms(m.medianMs)} | ${ms(m.p95Ms)} |`);
const f = sim.fanOut;
console.log(`\n| watch fan-out | watchers | changes | events delivered | all delivered after ms | events/s |\n|---|---:|---:|---:|---:|---:|`);
console.log(`| pods, from one resourceVersion | ${f.watchers} | ${f.changes} | ${f.deliveredEvents} | ${f.allDeliveredMs.toFixed(0)} | ${f.eventsPerSecond.toFixed(0)} |`);

const store = await benchStore(postgresUrl);
console.log(`\nStore: opening a new embedded store (initdb + migrations) took ${store.pgliteOpenMs.toFixed(0)} ms.\n`);
const [pglite, postgres] = store.results;
console.log(`| store operation | runs | pglite median ms | pglite p95 ms |${postgres ? " postgresql median ms | postgresql p95 ms | pglite / postgresql |" : ""}`);
console.log(`|---|---:|---:|---:|${postgres ? "---:|---:|---:|" : ""}`);
pglite!.measurements.forEach((m, i) => {
  const other = postgres?.measurements[i];
  const extra = other ? ` ${ms(other.medianMs)} | ${ms(other.p95Ms)} | ${(m.medianMs / other.medianMs).toFixed(2)} |` : "";
  console.log(`| ${m.name} | ${m.runs} | ${ms(m.medianMs)} | ${ms(m.p95Ms)} |${extra}`);
});

const lifecycle = await benchLifecycle();
console.log(`\nSandbox lifecycle on the embedded cluster: ${lifecycle.requestsPerCreate} Kubernetes API requests per create (median); the console's own time per create (excluding waits on the cluster) ${ms(lifecycle.consoleOwnMsPerCreate)} ms (median); start-up reconciliation recorded 1,000 Sandboxes made outside Berth in ${lifecycle.discoverMs.toFixed(0)} ms; pod Ready → Ready event on the bus (what SSE sends) ${lifecycle.readyToEventMs.toFixed(1)} ms (median of 10).\n`);
console.log("| lifecycle | runs | median ms | p95 ms |\n|---|---:|---:|---:|");
for (const m of [lifecycle.createMs, lifecycle.listFromMemory, lifecycle.listFromStore, lifecycle.listFromApi]) console.log(`| ${m.name} | ${m.runs} | ${ms(m.medianMs)} | ${ms(m.p95Ms)} |`);
console.log(`\nGET /api/v1/sandboxes (memory) vs asking the cluster API: ${(lifecycle.listFromApi.medianMs / lifecycle.listFromMemory.medianMs).toFixed(1)}×; vs the store: ${(lifecycle.listFromStore.medianMs / lifecycle.listFromMemory.medianMs).toFixed(1)}× (both ratios: the other way's time over the memory list's).`);

const disruption = await benchDisruption();
console.log(`\n| disruption | evictions | median ms | p99 ms |\n|---|---:|---:|---:|`);
console.log(`| eviction (Eviction API) → Disruption event on the bus (what SSE sends) | ${disruption.evictions} | ${ms(disruption.evictionToEventMedianMs)} | ${ms(disruption.evictionToEventP99Ms)} |`);

const maintenance = await benchMaintenance();
console.log(`\n| drain a node holding ${maintenance.sandboxes} sandboxes, each checkpointed first | ms | ÷ slowest single | checkpointed (median / worst) | evicted after | replaced after | throttled | fewest at once |\n|---|---:|---:|---:|---:|---:|---:|---:|`);
const phase = (run: typeof maintenance.calm, key: keyof typeof run.median) => `${run.median[key].toFixed(0)} / ${run.worst[key].toFixed(0)}`;
for (const [name, run] of [["Berth maintenance run, calm", maintenance.calm], [`Berth maintenance run, ${maintenance.throttledEvictions} evictions throttled (Retry-After 1 s)`, maintenance.throttled]] as const) {
  console.log(`| ${name} | ${run.runMs.toFixed(0)} | ${(run.runMs / maintenance.slowestSingleMs).toFixed(2)}× | ${phase(run, "checkpointMs")} | ${phase(run, "evictionMs")} | ${phase(run, "replacementMs")} | ${run.throttled} | ${run.fewestAtOnce} |`);
}
console.log(`| the slowest sandbox alone, by hand (checkpoint, evict, wait for the replacement) | ${maintenance.slowestSingleMs.toFixed(0)} | 1.00× | | | | | |`);
console.log(`| all of them by hand, one by one | ${maintenance.oneByOneMs.toFixed(0)} | ${(maintenance.oneByOneMs / maintenance.slowestSingleMs).toFixed(2)}× | | | | | |`);
console.log(`\nA calm maintenance run lasts ${(maintenance.calm.runMs / maintenance.slowestSingleMs).toFixed(2)}× as long as its slowest sandbox alone (target within 1.2×); ${(maintenance.oneByOneMs / maintenance.calm.runMs).toFixed(1)}× faster than one by one. Phases are ms from the run's start to the sandbox's checkpoint, then to its eviction, then to its replacement being Ready.\n`);

const templates = await benchTemplates();
console.log(`\n| a sandbox from a template (embedded cluster, clock ×${templates.clockScale}) | runs | median ms | p95 ms |\n|---|---:|---:|---:|`);
for (const m of [templates.warm, templates.cold]) console.log(`| ${m.name} | ${m.runs} | ${ms(m.medianMs)} | ${ms(m.p95Ms)} |`);
console.log(`\nWarm vs cold: ${(templates.cold.medianMs / templates.warm.medianMs).toFixed(1)}× faster (medians).`);

const access = await benchAccess();
console.log(`\n| authorization (embedded cluster, proxy sign-in, access reviews cached) | runs | median ms | p95 ms |\n|---|---:|---:|---:|`);
for (const m of [access.throughTheEdge, access.withoutTheEdge]) console.log(`| ${m.name} | ${m.runs} | ${ms(m.medianMs)} | ${ms(m.p95Ms)} |`);
console.log(`\nWhat the API edge (sign-in, access reviews from cache, checks) adds to a cached read: ${ms(access.throughTheEdge.medianMs - access.withoutTheEdge.medianMs)} ms (median; target under 2 ms). Kubernetes requests an allowed write adds (SubjectAccessReviews, median of 10 stops): ${access.questionsPerWrite.firstTime} the first time a person makes it, ${access.questionsPerWrite.cached} within the next 30 s (target at most 1).`);

const failover = await benchFailover();
console.log(`\n| replicas: leader election on a Lease (client-go timings, embedded cluster, candidates as processes) | runs | median ms | worst ms |\n|---|---:|---:|---:|`);
console.log(`| leader stopped (SIGTERM: releases the Lease) → the other leads | ${failover.released.runs} | ${failover.released.medianMs.toFixed(0)} | ${failover.released.worstMs.toFixed(0)} |`);
console.log(`| leader killed (SIGKILL: the lease runs out) → the other leads | ${failover.killed.runs} | ${failover.killed.medianMs.toFixed(0)} | ${failover.killed.worstMs.toFixed(0)} |`);
if (postgresUrl) {
  const delivery = await benchCrossReplicaDelivery(postgresUrl);
  console.log(`\n| replicas on PostgreSQL | events | median ms | p99 ms |\n|---|---:|---:|---:|`);
  console.log(`| event stored through one replica → published on another's live timeline (NOTIFY, then read) | ${delivery.events} | ${ms(delivery.medianMs)} | ${ms(delivery.p99Ms)} |`);
  const sse = await benchSseDelivery(postgresUrl);
  console.log(`| event stored through one replica → sent on another replica's event stream over HTTP (target p99 < 100 ms) | ${sse.events} | ${ms(sse.medianMs)} | ${ms(sse.p99Ms)} |`);
} else {
  console.log("\nCross-replica event delivery needs PostgreSQL: set BERTH_BENCH_DATABASE_URL to measure it.");
}
