import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BERTH_RESOURCE_REFUSAL } from "../../render/berth-resource-definitions.ts";
import { eventually } from "../testing/eventually.ts";
import { findKubectl } from "../testing/kubectl.ts";
import { aSandbox, startSimFixture, type SimFixture } from "../testing/sim-fixture.ts";

// A stock kubectl against the simulated cluster: get, describe, exec, cordon, drain, delete, and
// what kubectl sends in protobuf (creating built-in objects, the access reviews of `auth`).
// Runs the kubectl on PATH, else the one the real-control-plane build cached; skipped, with the
// reason printed, where there is neither.

const run = promisify(execFile);

const found = await findKubectl();
const kubectl = "kubectl" in found ? found.kubectl : null;
if ("missing" in found) console.warn(`kubectl smoke tests skipped: ${found.missing}`);

describe.skipIf(!kubectl)("kubectl against the simulated cluster", () => {
  let sim: SimFixture;
  let dataDir: string;
  const k = async (...args: string[]) => (await run(kubectl!, args, { env: { ...process.env, KUBECONFIG: path.join(dataDir, "kubeconfig") } })).stdout;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "berth-kubectl-"));
    sim = await startSimFixture({ dataDir, clockScale: 50 });
    const manifest = path.join(dataDir, "sandbox.json");
    writeFileSync(manifest, JSON.stringify(aSandbox({ name: "kubectl-box" })));
    // Validated as kubectl validates by default, against the cluster's OpenAPI documents.
    await k("create", "-f", manifest);
    await eventually(async () => {
      if (!(await k("get", "pod", "kubectl-box", "-o", "jsonpath={.status.phase}")).includes("Running")) throw new Error("not running");
    });
  });
  afterAll(async () => {
    await sim.cluster.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("creates a namespace, a secret and a config map, which it sends in protobuf", async () => {
    await k("create", "namespace", "smoke");
    await k("create", "secret", "generic", "token", "--from-literal=key=s3cret", "-n", "smoke");
    await k("create", "configmap", "settings", "--from-literal=mode=fast", "-n", "smoke");
    const read = await k("get", "secret/token", "configmap/settings", "-n", "smoke", "-o", "jsonpath={.items[0].data.key} {.items[1].data.mode}");
    await k("delete", "namespace", "smoke", "--wait=false");
    expect(read).toBe(`${Buffer.from("s3cret").toString("base64")} fast`);
  });

  it("answers `auth can-i` for the signed-in user and for someone impersonated", async () => {
    const admin = await k("auth", "can-i", "delete", "nodes");
    const stranger = await k("auth", "can-i", "list", "pods", "--as", "stranger@example.com").catch((error: { stdout: string }) => error.stdout);
    expect([admin, stranger]).toEqual(["yes\n", "no\n"]);
  });

  it("refuses someone impersonated with --as in the API server's words", async () => {
    const refusal = await k("get", "pods", "-n", "default", "--as", "stranger@example.com", "--as-group", "interns").catch((error: { stderr: string }) => error.stderr);
    expect(refusal).toContain('pods is forbidden: User "stranger@example.com" cannot list resource "pods" in API group "" in the namespace "default"');
  });

  it("knows Berth's own resources from discovery, as the chart declares them", async () => {
    expect(await k("api-resources", "--api-group", "berth.dev", "-o", "name")).toBe("auditlogs.berth.dev\nmaintenanceruns.berth.dev\nsettings.berth.dev\nsimulator.berth.dev\n");
  });

  it("refuses to store a berth.dev object, in the words a real API server uses for the definition's rule", async () => {
    const manifest = path.join(dataDir, "maintenance-run.json");
    writeFileSync(manifest, JSON.stringify({ apiVersion: "berth.dev/v1", kind: "MaintenanceRun", metadata: { name: "drain-worker-1" } }));
    const refusal = await k("create", "--validate=false", "-f", manifest).catch((error: { stderr: string }) => error.stderr);
    expect(refusal).toContain(`The MaintenanceRun "drain-worker-1" is invalid: <nil>: Invalid value: ${BERTH_RESOURCE_REFUSAL}`);
  });

  it("says who the user is (`auth whoami`)", async () => {
    expect(await k("auth", "whoami", "-o", "jsonpath={.status.userInfo.groups}", "--as", "stranger@example.com", "--as-group", "interns")).toBe('["interns","system:authenticated"]');
  });

  it("shows pods with the API server's columns, the wide ones with -o wide", async () => {
    const header = (await k("get", "pods", "-o", "wide")).split("\n")[0]!;
    expect(header.split(/\s{2,}/)).toEqual(["NAME", "READY", "STATUS", "RESTARTS", "AGE", "IP", "NODE", "NOMINATED NODE", "READINESS GATES"]);
  });

  it("shows a running sandbox pod as ready and Running", async () => {
    const row = (await k("get", "pod", "kubectl-box", "--no-headers")).trim().split(/\s+/);
    expect(row.slice(0, 4)).toEqual(["kubectl-box", "1/1", "Running", "0"]);
  });

  it("shows events with the API server's columns", async () => {
    const header = (await k("get", "events")).split("\n")[0]!;
    expect(header.split(/\s{2,}/)).toEqual(["LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"]);
  });

  it("shows a Sandbox with the printer columns of its published definition", async () => {
    expect((await k("get", "sandbox", "kubectl-box")).split("\n")[0]!.split(/\s{2,}/)).toEqual(["NAME", "READY", "REASON", "AGE"]);
  });

  it("marks the default storage class as kubectl does", async () => {
    expect(await k("get", "storageclasses", "--no-headers")).toMatch(/ \(default\)\s/);
  });

  it("explains a field of a built-in kind from the cluster's OpenAPI documents", async () => {
    expect(await k("explain", "pods.spec.containers.image")).toContain("Container image name.");
  });

  it("explains a Sandbox's fields from its published definition", async () => {
    expect(await k("explain", "sandbox.spec")).toMatch(/GROUP:\s+agents\.x-k8s\.io\nKIND:\s+Sandbox\nVERSION:\s+v1beta1/);
  });

  it("applies a manifest, and finds it unchanged the second time", async () => {
    const manifest = path.join(dataDir, "settings.json");
    writeFileSync(manifest, JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "applied", namespace: "default" }, data: { mode: "fast" } }));
    const [first, second] = [await k("apply", "-f", manifest), await k("apply", "-f", manifest)];
    expect([first, second]).toEqual(["configmap/applied created\n", "configmap/applied unchanged\n"]);
  });

  it("refuses a manifest with a field its kind does not declare, as kubectl validates by default", async () => {
    const manifest = path.join(dataDir, "typo.json");
    const sandbox = aSandbox({ name: "typo-box" });
    writeFileSync(manifest, JSON.stringify({ ...sandbox, spec: { ...sandbox.spec, podTemplte: {} } }));
    const refusal = await k("create", "-f", manifest).then(() => "created", (error: { stderr: string }) => error.stderr);
    expect(refusal).toContain('strict decoding error: unknown field "spec.podTemplte"');
  });

  it("lists the definitions of the custom resources it serves", async () => {
    expect(await k("get", "crds", "-o", "name")).toContain("customresourcedefinition.apiextensions.k8s.io/sandboxes.agents.x-k8s.io\n");
  });

  it("runs a Deployment to completion, as `kubectl rollout status` sees it", async () => {
    await k("create", "deployment", "smoke-web", "--image=nginx:1.27", "--replicas=2", "-n", "default");
    const status = await k("rollout", "status", "deployment/smoke-web", "-n", "default", "--timeout=60s");
    await k("delete", "deployment", "smoke-web", "-n", "default", "--wait=false");
    expect(status).toContain('deployment "smoke-web" successfully rolled out');
  });

  it("shows agent-sandbox installed as its release installs it: the controller's Deployment, ready", async () => {
    await k("rollout", "status", "deployment/agent-sandbox-controller", "-n", "agent-sandbox-system", "--timeout=60s");
    const row = (await k("get", "deployment", "agent-sandbox-controller", "-n", "agent-sandbox-system", "--no-headers")).trim().split(/\s+/);
    expect(row.slice(0, 2)).toEqual(["agent-sandbox-controller", "1/1"]);
  });

  it("lists the worker nodes", async () => {
    expect(await k("get", "nodes", "-o", "name")).toBe("node/worker-1\nnode/worker-2\nnode/worker-3\n");
  });

  it("describes a pod with its events", async () => {
    expect(await k("describe", "pod", "kubectl-box")).toContain("Successfully assigned default/kubectl-box to");
  });

  it("execs into the agent container and gets the exit code back", async () => {
    const written = await k("exec", "kubectl-box", "-c", "agent", "--", "sh", "-c", "echo hi > /sandbox/f && cat /sandbox/f");
    const failed = await k("exec", "kubectl-box", "--", "sh", "-c", "exit 4").then(() => 0, (error: { code: number }) => error.code);
    expect([written, failed]).toEqual(["hi\n", 4]);
  });

  it("cordons and uncordons a node", async () => {
    await k("cordon", "worker-3");
    const cordoned = await k("get", "node", "worker-3", "-o", "jsonpath={.spec.unschedulable}");
    await k("uncordon", "worker-3");
    expect(cordoned).toBe("true");
  });

  it("drains the sandbox's node through the Eviction API", async () => {
    const node = await k("get", "pod", "kubectl-box", "-o", "jsonpath={.spec.nodeName}");
    const output = await k("drain", node, "--ignore-daemonsets", "--timeout=60s");
    await k("uncordon", node);
    expect(output).toContain("pod/kubectl-box evicted");
  });

  it("deletes the sandbox and its pod and claim go with it", async () => {
    await k("delete", "sandbox", "kubectl-box");
    await eventually(async () => {
      if ((await k("get", "pods,pvc", "-o", "name")).trim() !== "") throw new Error("still there");
    });
  });
});
