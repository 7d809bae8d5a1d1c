// `npm run bench`: fixed workloads, medians and ratios, printed as tables.
// Set BERTH_BENCH_DATABASE_URL (or BERTH_TEST_DATABASE_URL) to compare PGlite with PostgreSQL.
import { ms } from "./measure.ts";
import { benchStore } from "./store.bench.ts";

const postgresUrl = process.env.BERTH_BENCH_DATABASE_URL ?? process.env.BERTH_TEST_DATABASE_URL;

console.log(`Berth benchmarks — node ${process.version}, ${new Date().toISOString()}\n`);

const store = await benchStore(postgresUrl);
console.log(`Store: opening a new embedded store (initdb + migrations) took ${store.pgliteOpenMs.toFixed(0)} ms.\n`);
const [pglite, postgres] = store.results;
console.log(`| store operation | runs | pglite median ms | pglite p95 ms |${postgres ? " postgresql median ms | postgresql p95 ms | pglite / postgresql |" : ""}`);
console.log(`|---|---:|---:|---:|${postgres ? "---:|---:|---:|" : ""}`);
pglite!.measurements.forEach((m, i) => {
  const other = postgres?.measurements[i];
  const extra = other ? ` ${ms(other.medianMs)} | ${ms(other.p95Ms)} | ${(m.medianMs / other.medianMs).toFixed(2)} |` : "";
  console.log(`| ${m.name} | ${m.runs} | ${ms(m.medianMs)} | ${ms(m.p95Ms)} |${extra}`);
});
