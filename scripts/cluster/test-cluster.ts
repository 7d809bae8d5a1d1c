// `npm run test:cluster`: Berth's driver suite against a real Kubernetes control plane.
//
//   1. build (once, cached) the control plane from the Go module proxy, and helm;
//   2. start it: etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kwok nodes, the
//      agent-sandbox controller and its CRD (scripts/cluster/control-plane.ts), and check that
//      its guard on kwok's pod deletes holds;
//   3. run the driver suite (lib/sandboxes/driver-suite) as cluster-admin, and leader election
//      on a real Lease (lib/kube/leader-election.test.ts);
//   4. apply Berth's Helm chart, and run the suite again as the chart's service account, with a
//      token from `kubectl create token`, and leader election on a Lease in the chart's
//      namespace: the chart's RBAC must be enough;
//   5. as that service account too, the authorization matrix (app/api/authorization-matrix.test.ts):
//      every endpoint asked by each demo person, answered by real RBAC and impersonation; and three
//      Berth replicas on one PostgreSQL database (BERTH_TEST_DATABASE_URL; skipped without it)
//      electing their leader on a Lease in the chart's namespace, the leader killed mid-maintenance
//      (app/api/replicas.test.ts);
//   6. check from the API server's audit log that the chart's RBAC is no more than needed
//      (scripts/cluster/chart-rbac.test.ts);
//   7. stop everything; start a second control plane running the oldest agent-sandbox release
//      Berth supports (AGENT_SANDBOX_PREVIOUS_VERSION) and run the driver suite on it as
//      cluster-admin; stop it and check that no process is left.
//
// `--report=FILE` writes {passed, failed, skipped, failures} for `npm test`'s summary.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseAllDocuments } from "yaml";
import { vitestCounts, type Report } from "../test-reports.ts";
import { kubeconfig, startControlPlane, type ControlPlane, type ControlPlaneOptions } from "./control-plane.ts";
import { pinnedVersion } from "./pinned-modules.ts";

const CHART_NAMESPACE = "berth-system";
const CHART_RELEASE = "berth";
const SERVICE_ACCOUNT_USER = `system:serviceaccount:${CHART_NAMESPACE}:${CHART_RELEASE}`;

interface Outcome extends Report {
  name: string;
  seconds: number;
}

const reportArgument = process.argv.find((argument) => argument.startsWith("--report="))?.slice("--report=".length);
const work = mkdtempSync(path.join(tmpdir(), "berth-test-cluster-"));

function say(line: string): void {
  console.log(`\n=== test:cluster: ${line}`);
}

/** Runs a build script and returns what it printed on stdout (its result); its progress shows. */
function built(script: string): string {
  const result = spawnSync("bash", [script], { stdio: ["ignore", "pipe", "inherit"], encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${script} failed (exit ${result.status})`);
  return result.stdout.trim();
}

function vitest(name: string, files: string[], env: Record<string, string>, auditLogPath?: string): Outcome {
  say(name);
  const since = new Date();
  const report = path.join(work, `${name.replace(/\W+/g, "-")}.json`);
  const began = performance.now();
  const result = spawnSync("npx", ["vitest", "run", "-c", "vitest.cluster.config.ts", ...files, "--reporter=default", "--reporter=json", `--outputFile.json=${report}`], {
    stdio: "inherit",
    env: { ...process.env, ...env },
  });
  const seconds = (performance.now() - began) / 1000;
  if (result.status !== 0 && auditLogPath) console.log(`\npods made, evicted and removed during "${name}" (audit log):\n${podHistory(auditLogPath, since)}`);
  try {
    const counts = vitestCounts(report);
    return { name, ...counts, failed: Math.max(counts.failed, result.status === 0 ? 0 : 1), failures: counts.failures.map((failure) => `${name}: ${failure}`), seconds };
  } catch {
    return { name, passed: 0, failed: 1, skipped: 0, failures: [`${name}: Vitest wrote no report (exit ${result.status})`], seconds };
  }
}

/**
 * Every pod made, evicted or removed while a suite ran, and by whom, as the API server's audit
 * log has them: what a failed disruption test needs first, printed because CI keeps no logs.
 */
function podHistory(auditLogPath: string, since: Date): string {
  type Entry = { stage: string; verb: string; userAgent?: string; stageTimestamp: string; objectRef?: { resource?: string; subresource?: string; namespace?: string; name?: string }; responseStatus?: { code?: number } };
  return readFileSync(auditLogPath, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line) as Entry)
    .filter((entry) => entry.stage === "ResponseComplete" && entry.objectRef?.resource === "pods" && Date.parse(entry.stageTimestamp) >= since.getTime())
    .map(({ stageTimestamp, verb, objectRef, responseStatus, userAgent }) =>
      `${stageTimestamp} ${verb} ${["pods", objectRef?.subresource].filter(Boolean).join("/")} ${objectRef?.namespace}/${objectRef?.name ?? ""} → ${responseStatus?.code} by ${(userAgent ?? "?").split(" ")[0]}`)
    .join("\n");
}

function failedStep(name: string, error: unknown): Outcome {
  console.error(`test:cluster: ${name} failed: ${(error as Error).stack ?? error}`);
  return { name, passed: 0, failed: 1, skipped: 0, failures: [`${name}: ${(error as Error).message.split("\n")[0]}`], seconds: 0 };
}

/** Applies the chart as a user would install it, and returns a kubeconfig of its service account. */
function installChart(plane: ControlPlane, helm: string, kubernetesVersion: string): { manifests: string; serviceAccountKubeconfig: string } {
  // What every install must say (where people reach Berth, who proves who they are); the suite
  // itself acts as Berth's service account, so neither is used here.
  // With PostgreSQL, as a multi-replica install is, so that the Lease role is installed too.
  const required = ["auth.publicUrl=https://berth.example.com", "auth.oidc.issuer=https://id.example.com", "store.kind=postgresql", "store.postgresql.existingSecret=berth-db"].flatMap((value) => ["--set", value]);
  const render = (values: string[]) => {
    const rendered = spawnSync(helm, ["template", CHART_RELEASE, "charts/berth", "--include-crds", "--namespace", CHART_NAMESPACE, "--kube-version", kubernetesVersion, ...required, ...values], { encoding: "utf8" });
    if (rendered.status !== 0) throw new Error(`helm template failed: ${rendered.stderr}`);
    return rendered.stdout;
  };
  const manifests = path.join(work, "chart.yaml");
  writeFileSync(manifests, render([]));
  plane.kubectl(["create", "namespace", CHART_NAMESPACE]);
  // Three replicas' budget and spread, as the API server would accept them (not applied: their
  // budget would stand in the way of the suite's drains).
  const threeReplicas = path.join(work, "chart-three-replicas.yaml");
  writeFileSync(threeReplicas, render(["--set", "replicaCount=3"]));
  plane.kubectl(["apply", "--dry-run=server", "--namespace", CHART_NAMESPACE, "-f", threeReplicas]);
  // The install guide's values (docs/install.md), as the API server would accept them; its
  // bindings name two teams' namespaces.
  for (const team of ["team-a", "team-b"]) plane.kubectl(["apply", "-f", "-"], JSON.stringify({ apiVersion: "v1", kind: "Namespace", metadata: { name: team } }));
  const guide = spawnSync(helm, ["template", CHART_RELEASE, "charts/berth", "--namespace", CHART_NAMESPACE, "--kube-version", kubernetesVersion, "-f", "docs/examples/values.yaml"], { encoding: "utf8" });
  if (guide.status !== 0) throw new Error(`helm template with the install guide's values failed: ${guide.stderr}`);
  // As helm install places them: what names no namespace goes in the release's; the teams'
  // RoleBindings name theirs, and kubectl refuses them under --namespace.
  const objects = parseAllDocuments(guide.stdout).map((document) => document.toJSON() as { metadata?: { namespace?: string } } | null).filter((object) => object !== null);
  const elsewhere = objects.filter((object) => object.metadata?.namespace && object.metadata.namespace !== CHART_NAMESPACE);
  for (const [name, group, namespace] of [["release", objects.filter((object) => !elsewhere.includes(object)), ["--namespace", CHART_NAMESPACE]], ["teams", elsewhere, []]] as const) {
    const file = path.join(work, `chart-install-guide-${name}.yaml`);
    writeFileSync(file, group.map((object) => JSON.stringify(object)).join("\n---\n"));
    plane.kubectl(["apply", "--dry-run=server", ...namespace, "-f", file]);
  }
  plane.kubectl(["apply", "--namespace", CHART_NAMESPACE, "-f", manifests]);
  // Berth's own resource definitions: discovery must list them before kubectl is asked about them.
  plane.kubectl(["wait", "--for=condition=Established", "crd", "-l", "app.kubernetes.io/part-of=berth", "--timeout=60s"]);
  const token = plane.kubectl(["create", "token", CHART_RELEASE, "--namespace", CHART_NAMESPACE, "--duration=2h"]).trim();
  const serviceAccountKubeconfig = path.join(work, "service-account.kubeconfig");
  writeFileSync(serviceAccountKubeconfig, kubeconfig(plane.server, token, SERVICE_ACCOUNT_USER));
  return { manifests, serviceAccountKubeconfig };
}

/**
 * The control plane's guard on kwok's by-name deletes (kwokDeletesOnlyTerminatingPods) is in
 * force: kwok cannot delete a pod nobody is deleting. Without it, a late duplicate delete could
 * remove a replacement agent-sandbox made under the same name, and the suite would flake.
 */
function kwokDeletePolicyHolds(plane: ControlPlane): Outcome {
  const name = "kwok-delete-guard";
  const pod = { apiVersion: "v1", kind: "Pod", metadata: { name, namespace: "default" }, spec: { containers: [{ name: "agent", image: "busybox" }] } };
  try {
    plane.kubectl(["create", "-f", "-"], JSON.stringify(pod));
    let refusal: string | null = null;
    try {
      plane.kubectlAsKwok(["delete", "pod", name, "--namespace", "default", "--grace-period=0", "--wait=false"]);
    } catch (error) {
      refusal = (error as Error).message;
    }
    plane.kubectl(["delete", "pod", name, "--namespace", "default", "--grace-period=0", "--force", "--wait=false"]);
    if (!refusal?.includes("kwok may only finish the deletion of a pod that is being deleted")) throw new Error(`kwok deleted a pod nobody was deleting${refusal ? `, or was refused for another reason: ${refusal}` : ""}`);
    return { name: "kwok finishes only deletions under way", passed: 1, failed: 0, skipped: 0, failures: [], seconds: 0 };
  } catch (error) {
    return failedStep("kwok finishes only deletions under way", error);
  }
}

function processesLeft(pids: number[]): number[] {
  return pids.filter((pid) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  });
}

async function main(): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  say("building the control plane and helm (cached after the first time)");
  const toolsDir = built("scripts/cluster/build-control-plane.sh");
  const helm = built("scripts/tools/build-helm.sh");
  const kubernetesVersion = /KUBERNETES_VERSION=(v[\d.]+)/.exec(readFileSync("scripts/cluster/versions.sh", "utf8"))![1]!;

  const pids: number[] = [];
  let running: ControlPlane | undefined;
  const stopOnSignal = (signal: NodeJS.Signals) => {
    void (running?.stop() ?? Promise.resolve()).finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
  };
  process.once("SIGINT", stopOnSignal);
  process.once("SIGTERM", stopOnSignal);
  const started = async (what: string, options: Omit<ControlPlaneOptions, "toolsDir" | "keep">) => {
    say(`starting ${what}`);
    const began = performance.now();
    running = await startControlPlane({ toolsDir, keep: process.env.BERTH_CLUSTER_KEEP === "1", ...options });
    console.log(`control plane ready in ${((performance.now() - began) / 1000).toFixed(1)} s`);
    pids.push(...running.pids());
    return running;
  };

  const plane = await started("the control plane", { auditedUsers: [SERVICE_ACCOUNT_USER] });
  try {
    outcomes.push(kwokDeletePolicyHolds(plane));
    outcomes.push(vitest("driver suite as cluster-admin", ["lib/sandboxes/driver-suite"], { BERTH_TEST_KUBECONFIG: plane.kubeconfigPath }, plane.auditLogPath));
    outcomes.push(vitest("leader election on a real Lease", ["lib/kube/leader-election.test.ts"], { BERTH_TEST_KUBECONFIG: plane.kubeconfigPath }, plane.auditLogPath));
    let chart: ReturnType<typeof installChart> | undefined;
    try {
      say("installing the Helm chart");
      chart = installChart(plane, helm, kubernetesVersion);
    } catch (error) {
      outcomes.push(failedStep("chart install", error));
    }
    if (chart) {
      outcomes.push(vitest("driver suite as the chart's service account", ["lib/sandboxes/driver-suite"], {
        BERTH_TEST_KUBECONFIG: chart.serviceAccountKubeconfig,
        BERTH_TEST_OPERATOR_KUBECONFIG: plane.kubeconfigPath,
      }, plane.auditLogPath));
      outcomes.push(vitest("leader election as the chart's service account", ["lib/kube/leader-election.test.ts"], {
        BERTH_TEST_KUBECONFIG: chart.serviceAccountKubeconfig,
        BERTH_TEST_LEASE_NAMESPACE: CHART_NAMESPACE,
      }, plane.auditLogPath));
      outcomes.push(vitest("authorization matrix as the chart's service account", ["app/api/authorization-matrix.test.ts"], {
        BERTH_TEST_KUBECONFIG: chart.serviceAccountKubeconfig,
        BERTH_TEST_OPERATOR_KUBECONFIG: plane.kubeconfigPath,
      }, plane.auditLogPath));
      const databaseUrl = process.env.BERTH_TEST_DATABASE_URL;
      outcomes.push(databaseUrl
        ? vitest("three replicas on a real Lease as the chart's service account", ["app/api/replicas.test.ts"], {
          BERTH_TEST_KUBECONFIG: chart.serviceAccountKubeconfig,
          BERTH_TEST_OPERATOR_KUBECONFIG: plane.kubeconfigPath,
          BERTH_TEST_LEASE_NAMESPACE: CHART_NAMESPACE,
          BERTH_TEST_DATABASE_URL: databaseUrl,
        }, plane.auditLogPath)
        : { name: "three replicas on a real Lease", passed: 0, failed: 0, skipped: 1, failures: [], seconds: 0 });
      outcomes.push(vitest("the chart's RBAC is what Berth uses", ["scripts/cluster/chart-rbac.test.ts"], {
        BERTH_TEST_AUDIT_LOG: plane.auditLogPath,
        BERTH_TEST_CHART_MANIFESTS: chart.manifests,
        BERTH_TEST_AUDITED_USER: SERVICE_ACCOUNT_USER,
      }));
    }
  } finally {
    say("stopping the control plane");
    await plane.stop();
  }
  // Berth supports agent-sandbox releases from this one on: the driver suite runs against it too.
  const previous = pinnedVersion("AGENT_SANDBOX_PREVIOUS_VERSION");
  try {
    const older = await started(`a control plane with agent-sandbox ${previous}, the oldest release Berth supports`, { agentSandboxVersion: previous });
    try {
      outcomes.push(vitest(`driver suite on agent-sandbox ${previous}`, ["lib/sandboxes/driver-suite"], { BERTH_TEST_KUBECONFIG: older.kubeconfigPath, BERTH_TEST_AGENT_SANDBOX_VERSION: previous }, older.auditLogPath));
    } finally {
      await older.stop();
    }
  } catch (error) {
    outcomes.push(failedStep(`control plane with agent-sandbox ${previous}`, error));
  }
  const left = processesLeft(pids);
  outcomes.push(left.length === 0
    ? { name: "no process left behind", passed: 1, failed: 0, skipped: 0, failures: [], seconds: 0 }
    : { name: "no process left behind", passed: 0, failed: 1, skipped: 0, failures: [`processes still running after stop: ${left.join(", ")}`], seconds: 0 });
  return outcomes;
}

let outcomes: Outcome[];
try {
  outcomes = await main();
} catch (error) {
  outcomes = [failedStep("control plane", error)];
}
rmSync(work, { recursive: true, force: true });

console.log("\n| test:cluster | passed | failed | skipped | seconds |\n|---|---:|---:|---:|---:|");
for (const outcome of outcomes) console.log(`| ${outcome.name} | ${outcome.passed} | ${outcome.failed} | ${outcome.skipped} | ${outcome.seconds.toFixed(1)} |`);
const total = outcomes.reduce((sum, outcome) => ({
  passed: sum.passed + outcome.passed,
  failed: sum.failed + outcome.failed,
  skipped: sum.skipped + outcome.skipped,
  failures: [...sum.failures, ...outcome.failures],
}), { passed: 0, failed: 0, skipped: 0, failures: [] as string[] });
if (total.failures.length > 0) console.log(`\nFailed:\n${total.failures.map((failure) => `- ${failure}`).join("\n")}`);
console.log(`\n${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
if (reportArgument) writeFileSync(reportArgument, JSON.stringify(total));
process.exit(total.failed > 0 ? 1 : 0);
