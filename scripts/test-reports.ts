// Readers of the test tools' JSON reports: counts, and each failed test named with the first
// line of its failure. CI keeps only the end of the output, and a count without a name sends the
// next person hunting through logs that are gone.
import { readFileSync } from "node:fs";
import path from "node:path";

export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

export type Report = Counts & { failures: string[] };

export function vitestCounts(file: string): Report {
  const json = JSON.parse(readFileSync(file, "utf8")) as {
    numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number;
    testResults: { name: string; message?: string; assertionResults: { fullName: string; status: string; failureMessages?: string[] }[] }[];
  };
  const failures = json.testResults.flatMap((file) => {
    const where = path.relative(process.cwd(), file.name);
    const failed = file.assertionResults.filter((test) => test.status === "failed").map((test) => `${where} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    // A file that failed to load has no test results, only its message.
    return failed.length === 0 && file.message ? [`${where}: ${firstLine(file.message)}`] : failed;
  });
  return { passed: json.numPassedTests, failed: json.numFailedTests, skipped: json.numPendingTests + json.numTodoTests, failures };
}

interface PlaywrightSuite { title: string; specs?: { title: string; ok: boolean; tests: { results: { error?: { message?: string } }[] }[] }[]; suites?: PlaywrightSuite[] }

export function playwrightCounts(file: string): Report {
  const { stats, suites } = JSON.parse(readFileSync(file, "utf8")) as { stats: { expected: number; unexpected: number; skipped: number; flaky: number }; suites: PlaywrightSuite[] };
  const failures: string[] = [];
  const visit = (suite: PlaywrightSuite, titles: string[]) => {
    for (const spec of suite.specs ?? []) {
      if (!spec.ok) failures.push(`${[...titles, spec.title].join(" › ")}: ${firstLine(spec.tests.at(-1)?.results.at(-1)?.error?.message)}`);
    }
    for (const child of suite.suites ?? []) visit(child, [...titles, child.title]);
  };
  for (const suite of suites) visit(suite, [suite.title]);
  return { passed: stats.expected + stats.flaky, failed: stats.unexpected, skipped: stats.skipped, failures };
}

/** scripts/cluster/test-cluster.ts writes its own totals. */
export function clusterCounts(file: string): Report {
  return JSON.parse(readFileSync(file, "utf8")) as Report;
}

function firstLine(message: string | undefined): string {
  // Strip colour codes; keep the line a person reads first.
  return (message ?? "(no message)").replace(/\u001b\[[0-9;]*m/g, "").split("\n").find((line) => line.trim() !== "")?.trim().slice(0, 300) ?? "(no message)";
}
