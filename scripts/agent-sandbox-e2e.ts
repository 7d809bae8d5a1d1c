// `npm run test:agent-sandbox-e2e`: agent-sandbox's own e2e suites (test/e2e and
// test/e2e/extensions of the module at the version scripts/cluster/versions.sh pins), as written,
// against the embedded cluster through a kubeconfig — their client-go and controller-runtime
// clients speak protobuf and read discovery, CRDs and the controller's Deployment as on any
// cluster. The tests that need what the embedded cluster cannot give (a browser or a runtime
// image actually serving HTTP through port-forward) are skipped, each with its reason printed;
// tests that skip themselves say why in their own output.
//
// The test binaries are built once per version into ~/.cache/berth-agent-sandbox-e2e/<version>
// (BERTH_AGENT_SANDBOX_E2E_CACHE moves it). A failed test is run again on its own, up to
// RETRIES times: one that then passes is counted as passed and listed as flaky, with its first
// failure printed. Some of these tests race the controller on any cluster, ours included:
// TestSandboxVolumeClaimTemplatesImmutable/unset→set reads a new Sandbox and updates it, and the
// controller's status write for the pod being scheduled (a few milliseconds after the create, as
// on kind) often lands in between, so the update gets a 409 Conflict instead of the immutability
// error; it fails about one run in three here. Five runs in a row failing is a real failure.
//
//   --report=<file>   writes { passed, failed, skipped, failures } for scripts/run-tests.ts
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { startSimulatedCluster } from "../lib/sim/index.ts";
import { moduleDirectory, pinnedVersion } from "./cluster/pinned-modules.ts";

const MODULE = "sigs.k8s.io/agent-sandbox";

/** What the embedded cluster cannot do for these tests, by test. */
const SKIPPED: Record<string, string> = {
  TestRunChromeSandbox: "runs Chrome and reaches its DevTools endpoint through port-forward: needs a real browser image and the pod's network",
  TestRunPythonRuntimeSandbox: "talks HTTP to the python-runtime image's server through port-forward: needs a real runtime image",
  TestRunPythonRuntimeSandboxClaim: "talks HTTP to the python-runtime image's server through port-forward: needs a real runtime image",
  TestRunPythonRuntimeSandboxWarmpool: "talks HTTP to the python-runtime image's server through port-forward: needs a real runtime image",
};

interface Suite {
  name: "e2e" | "extensions";
  /** The package, relative to the module. */
  directory: string;
}
/** How many more times a failed test is run on its own before it counts as failed. */
const RETRIES = 4;

const SUITES: Suite[] = [
  { name: "e2e", directory: "test/e2e" },
  { name: "extensions", directory: "test/e2e/extensions" },
];

interface Outcome {
  test: string;
  result: "PASS" | "FAIL" | "SKIP";
  seconds: number;
}

const reportArgument = process.argv.find((argument) => argument.startsWith("--report="))?.slice("--report=".length);
const root = path.resolve(import.meta.dirname, "..");

/** The module's source, writable, and its two test binaries, built unless the cache has them. */
function testBinaries(version: string): { source: string; binary: (suite: Suite) => string } {
  const cache = path.join(process.env.BERTH_AGENT_SANDBOX_E2E_CACHE ?? path.join(homedir(), ".cache", "berth-agent-sandbox-e2e"), version);
  const source = path.join(cache, "src");
  const binary = (suite: Suite) => path.join(cache, "bin", `${suite.name}.test`);
  if (SUITES.every((suite) => existsSync(binary(suite))) && existsSync(source)) return { source, binary };
  rmSync(cache, { recursive: true, force: true });
  mkdirSync(path.join(cache, "bin"), { recursive: true });
  const module = moduleDirectory(MODULE, version, root);
  // The module cache is read-only; the build needs a copy it may write go.sum into.
  cpSync(module, source, { recursive: true });
  spawnSync("chmod", ["-R", "u+w", source]);
  for (const suite of SUITES) {
    console.log(`building ${MODULE}@${version} ./${suite.directory} …`);
    const built = spawnSync("go", ["test", "-c", "-o", binary(suite), `./${suite.directory}`], { cwd: source, stdio: "inherit", env: { ...process.env, GOFLAGS: "-mod=mod" } });
    if (built.status !== 0) throw new Error(`go test -c ./${suite.directory} failed (exit ${built.status})`);
  }
  return { source, binary };
}

/** Runs `tests` (a -test.run pattern) of one binary, its output streamed with a prefix, and reads the top-level results. */
function runTests(binary: string, cwd: string, env: Record<string, string>, run: string, skip: string | undefined, label: string): Promise<{ outcomes: Outcome[]; output: string; exitCode: number | null }> {
  const args = ["-test.v", "-test.parallel=1", "-test.timeout=20m", "-test.run", run, ...(skip ? ["-test.skip", skip] : [])];
  return new Promise((resolve) => {
    const child = spawn(binary, args, { cwd, env: { ...process.env, ...env } });
    let output = "";
    const take = (chunk: Buffer) => {
      const text = chunk.toString();
      output += text;
      for (const line of text.split("\n")) if (line.trim()) console.log(`[${label}] ${line}`);
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    child.on("close", (exitCode) => {
      const outcomes = [...output.matchAll(/^--- (PASS|FAIL|SKIP): (\w+) \(([\d.]+)s\)/gm)].map((match) => ({ result: match[1] as Outcome["result"], test: match[2]!, seconds: Number(match[3]) }));
      resolve({ outcomes, output, exitCode });
    });
  });
}

/** The lines a failed test printed, from its RUN line to its result. */
function failureOf(output: string, test: string): string {
  const start = output.indexOf(`=== RUN   ${test}\n`);
  const end = output.indexOf(`--- FAIL: ${test} `);
  const text = start === -1 || end === -1 ? "" : output.slice(start, end);
  // testify prints "Error:" with the message on the same line or the next one, then "Messages:".
  const lines = text.split("\n").map((line) => line.trim());
  const said = lines.flatMap((line, index) => {
    const match = /^(Error|Messages):\s*(.*)$/.exec(line);
    if (!match) return [];
    return [match[2] || lines[index + 1] || ""];
  });
  return said.filter(Boolean).slice(0, 2).join(" — ") || "(see the output above)";
}

async function main(): Promise<void> {
  const version = pinnedVersion("AGENT_SANDBOX_VERSION");
  const { source, binary } = testBinaries(version);
  const dataDir = mkdtempSync(path.join(tmpdir(), "berth-agent-sandbox-e2e-"));
  const cluster = await startSimulatedCluster({ dataDir });
  const env = { KUBECONFIG: path.join(dataDir, "kubeconfig"), ARTIFACTS: path.join(dataDir, "artifacts") };
  console.log(`agent-sandbox ${version} e2e against the embedded cluster at ${cluster.secureServerUrl} (KUBECONFIG=${env.KUBECONFIG})`);
  for (const [test, reason] of Object.entries(SKIPPED)) console.log(`skipped ${test}: ${reason}`);
  const skip = `^(${Object.keys(SKIPPED).join("|")})$`;
  const outcomes: Outcome[] = [];
  const flaky: string[] = [];
  const failures: string[] = [];
  try {
    // The two packages at once: their tests work in namespaces of their own.
    const runs = await Promise.all(SUITES.map(async (suite) => ({ suite, ...(await runTests(binary(suite), path.join(source, suite.directory), env, ".", skip, suite.name)) })));
    for (const { suite, outcomes: first, output, exitCode } of runs) {
      // A binary that died (a panic, the timeout) without a failed test to show for it still failed.
      if (exitCode !== 0 && !first.some((one) => one.result === "FAIL")) failures.push(`${suite.name}: the test binary exited with ${exitCode} (see its output above)`);
      for (const outcome of first) {
        if (outcome.result !== "FAIL") {
          outcomes.push(outcome);
          continue;
        }
        const firstFailure = failureOf(output, outcome.test);
        let lastFailure = firstFailure;
        let passed: Outcome | undefined;
        for (let attempt = 1; attempt <= RETRIES && !passed; attempt++) {
          const again = await runTests(binary(suite), path.join(source, suite.directory), env, `^${outcome.test}$`, undefined, `${suite.name} retry ${attempt}`);
          const result = again.outcomes.find((one) => one.test === outcome.test);
          if (result?.result === "PASS") {
            passed = result;
            flaky.push(`${outcome.test}: failed ${attempt} time${attempt === 1 ? "" : "s"} (first: ${firstFailure}), then passed`);
          } else lastFailure = failureOf(again.output, outcome.test);
        }
        if (passed) outcomes.push(passed);
        else {
          outcomes.push(outcome);
          failures.push(`${outcome.test}: failed ${RETRIES + 1} times in a row; the last time: ${lastFailure}`);
        }
      }
    }
  } finally {
    await cluster.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const skipped = [...Object.keys(SKIPPED), ...outcomes.filter((one) => one.result === "SKIP").map((one) => one.test)];
  const counts = { passed: outcomes.filter((one) => one.result === "PASS").length, failed: failures.length, skipped: skipped.length };
  console.log(`\n| agent-sandbox ${version} test | result | seconds |\n|---|---|---:|`);
  for (const outcome of outcomes) console.log(`| ${outcome.test} | ${outcome.result} | ${outcome.seconds.toFixed(1)} |`);
  for (const test of Object.keys(SKIPPED)) console.log(`| ${test} | SKIP (ours) | 0.0 |`);
  if (flaky.length > 0) console.log(`\nFlaky:\n${flaky.map((line) => `- ${line}`).join("\n")}`);
  if (failures.length > 0) console.log(`\nFailed:\n${failures.map((line) => `- ${line}`).join("\n")}`);
  console.log(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  if (reportArgument) writeFileSync(reportArgument, JSON.stringify({ ...counts, failures }));
  process.exit(counts.failed > 0 ? 1 : 0);
}

await main();
