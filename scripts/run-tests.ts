// `npm test`: every suite, one after another, then one table and one closing line
// ("N passed, N failed, N skipped") that CI reads. Exits non-zero if anything failed. First it
// makes the machine ready: the Debian packages the suites need (Chromium, PostgreSQL) are
// installed when missing (as root or with sudo), and PostgreSQL is started.
//
//   type-check     tsc over the whole project
//   migrations     prisma/schema.prisma and prisma/migrations agree
//   unit+store     Vitest: pure logic, and the store on embedded PGlite
//   store (pg)     the store suites again on PostgreSQL (BERTH_TEST_DATABASE_URL's, or the machine's
//                  own, started for the run and stopped after it), with what needs several
//                  processes on one database: the timeline feed across replicas, and three
//                  replica processes whose leader is killed (app/api/replicas.test.ts)
//   chart          the Helm chart: lint, golden renders, schema refusals (helm built once from Go)
//   cluster        `npm run test:cluster`: the driver suite on a real control plane built from Go,
//                  as cluster-admin and as the chart's service account, and the chart's RBAC
//   agent-sandbox e2e  `npm run test:agent-sandbox-e2e`: agent-sandbox's own e2e suites, built from
//                  its module, against the embedded cluster (skips printed with their reasons)
//   standalone     after next build: the standalone server as the Dockerfile assembles it answers /api/health
//   e2e            next build, then Playwright in Debian's Chromium against next start
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { clusterCounts, playwrightCounts, vitestCounts, type Counts, type Report } from "./test-reports.ts";


interface Step {
  name: string;
  command: string[];
  env?: Record<string, string>;
  /** Tests counted from the tool's JSON report; a step without one counts as one check. */
  report?: (file: string) => Report;
  reportFile?: string;
  skipBecause?: string;
}

const reports = mkdtempSync(path.join(tmpdir(), "berth-test-reports-"));
const reportPath = (name: string) => path.join(reports, `${name}.json`);


const only = process.argv.slice(2);
const wants = (name: string) => only.length === 0 || only.includes(name);

/** The machine made ready for the suites asked for: its Debian packages, and PostgreSQL running. */
function prepareMachine(): { postgresUrl: string | undefined; stopPostgres: () => void } {
  const nothing = { postgresUrl: process.env.BERTH_TEST_DATABASE_URL, stopPostgres: () => {} };
  if (!wants("e2e") && !wants("store (pg)")) return nothing;
  const packages = spawnSync("bash", ["scripts/ci/ensure-debian-packages.sh"], { stdio: "inherit" });
  if (packages.status !== 0) process.exit(1);
  if (nothing.postgresUrl || !wants("store (pg)")) return nothing;
  // Leave the machine as it was found: stop PostgreSQL at the end if this run started it.
  const wasRunning = /online/.test(spawnSync("pg_lsclusters", ["-h"], { encoding: "utf8" }).stdout ?? "");
  const started = spawnSync("bash", ["scripts/ci/start-postgres.sh"], { stdio: ["ignore", "pipe", "inherit"], encoding: "utf8" });
  if (started.status !== 0) {
    console.error("PostgreSQL could not be started for the store suites (scripts/ci/start-postgres.sh); set BERTH_TEST_DATABASE_URL to use another.");
    process.exit(1);
  }
  const url = started.stdout.trim();
  return { postgresUrl: url, stopPostgres: () => (wasRunning ? undefined : void spawnSync("bash", ["scripts/ci/stop-postgres.sh"], { stdio: "inherit" })) };
}

const machine = prepareMachine();
const postgresUrl = machine.postgresUrl;

const steps: Step[] = [
  { name: "type-check", command: ["npx", "tsc", "--noEmit", "-p", "tsconfig.json"] },
  { name: "migrations", command: ["npx", "tsx", "scripts/new-migration.ts", "check"] },
  {
    name: "unit+store",
    command: ["npx", "vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${reportPath("unit")}`],
    env: { BERTH_TEST_DATABASE_URL: "" },
    report: vitestCounts,
    reportFile: reportPath("unit"),
  },
  {
    name: "store (pg)",
    command: ["npx", "vitest", "run", "lib/store", "lib/events/timeline-feed.test.ts", "app/api/replicas.test.ts", "--exclude", "lib/store/embedded-store-lock.test.ts", "--reporter=default", "--reporter=json", `--outputFile.json=${reportPath("pg")}`],
    env: { BERTH_TEST_DATABASE_URL: postgresUrl ?? "" },
    report: vitestCounts,
    reportFile: reportPath("pg"),
    skipBecause: postgresUrl ? undefined : "no PostgreSQL to run them on",
  },
  {
    name: "chart",
    command: ["bash", "-c", `BERTH_HELM=$(bash scripts/tools/build-helm.sh) && export BERTH_HELM && npx vitest run -c vitest.chart.config.ts --reporter=default --reporter=json --outputFile.json=${reportPath("chart")}`],
    report: vitestCounts,
    reportFile: reportPath("chart"),
  },
  {
    name: "cluster",
    command: ["npx", "tsx", "scripts/cluster/test-cluster.ts", `--report=${reportPath("cluster")}`],
    env: { BERTH_TEST_DATABASE_URL: postgresUrl ?? "" },
    report: clusterCounts,
    reportFile: reportPath("cluster"),
  },
  {
    name: "agent-sandbox e2e",
    command: ["npx", "tsx", "scripts/agent-sandbox-e2e.ts", `--report=${reportPath("agent-sandbox-e2e")}`],
    report: clusterCounts,
    reportFile: reportPath("agent-sandbox-e2e"),
  },
  { name: "build", command: ["npx", "next", "build"] },
  { name: "standalone", command: ["npx", "tsx", "scripts/ci/check-standalone-server.ts"] },
  {
    name: "e2e",
    command: ["npx", "playwright", "test", "--reporter=list,json"],
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: reportPath("e2e") },
    report: playwrightCounts,
    reportFile: reportPath("e2e"),
  },
];

const rows: { name: string; counts: Counts; seconds: number; note: string }[] = [];
const failures: string[] = [];
let broken = false;

for (const step of steps) {
  if (only.length > 0 && !only.includes(step.name)) continue;
  if (step.skipBecause) {
    rows.push({ name: step.name, counts: { passed: 0, failed: 0, skipped: 0 }, seconds: 0, note: `skipped: ${step.skipBecause}` });
    continue;
  }
  console.log(`\n=== ${step.name}: ${step.command.join(" ")}`);
  const began = performance.now();
  const result = spawnSync(step.command[0]!, step.command.slice(1), { stdio: "inherit", env: { ...process.env, ...step.env } });
  const seconds = (performance.now() - began) / 1000;
  const ok = result.status === 0;
  let counts: Counts = { passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0 };
  if (step.report && step.reportFile) {
    try {
      const report = step.report(step.reportFile);
      counts = report;
      failures.push(...report.failures.map((failure) => `${step.name}: ${failure}`));
      // A runner that crashed after writing some results still failed.
      if (!ok && counts.failed === 0) counts.failed = 1;
    } catch {
      // No report: the runner died before writing one.
    }
  }
  if (!ok) broken = true;
  rows.push({ name: step.name, counts, seconds, note: ok ? "" : `exit ${result.status ?? result.signal}` });
}

const total = rows.reduce((sum, row) => ({
  passed: sum.passed + row.counts.passed,
  failed: sum.failed + row.counts.failed,
  skipped: sum.skipped + row.counts.skipped,
}), { passed: 0, failed: 0, skipped: 0 });

console.log("\n| suite | passed | failed | skipped | seconds | note |\n|---|---:|---:|---:|---:|---|");
for (const row of rows) {
  console.log(`| ${row.name} | ${row.counts.passed} | ${row.counts.failed} | ${row.counts.skipped} | ${row.seconds.toFixed(1)} | ${row.note} |`);
}
machine.stopPostgres();
if (failures.length > 0) console.log(`\nFailed:\n${failures.map((failure) => `- ${failure}`).join("\n")}`);
console.log(`\n${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(broken || total.failed > 0 ? 1 : 0);
