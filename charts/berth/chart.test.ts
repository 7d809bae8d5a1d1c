import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import { loadServerConfig } from "../../lib/config/server-config.ts";
import { gatewayDefaultsSchema } from "../../lib/domain/gateway-defaults.ts";
import { expectGolden } from "../../lib/testing/golden-files.ts";

// The Helm chart through helm itself (built from its Go module by scripts/tools/build-helm.sh;
// `npm test` passes its path in BERTH_HELM): lint, the rendered manifests as golden files, the
// values schema's refusals, and the config file it writes read back by Berth's own loader.

const CHART = dirname(fileURLToPath(import.meta.url));
const TESTDATA = join(CHART, "testdata");
const helm = process.env["BERTH_HELM"];
/** helm built from source says it talks to Kubernetes v1.20; render for the release Berth is tested with. */
const KUBE_VERSION = ["--kube-version", "1.34.0"];

function runHelm(args: string[]) {
  if (!helm) throw new Error("BERTH_HELM is not set: run the chart tests through `npm test` (or `npm test chart`), which builds helm first");
  return spawnSync(helm, args, { encoding: "utf8" });
}

function template(values: string[] = []): string {
  const result = runHelm(["template", "berth", CHART, "--namespace", "berth-system", ...KUBE_VERSION, ...values.flatMap((value) => ["--set", value])]);
  if (result.status !== 0) throw new Error(result.stderr);
  return result.stdout;
}

const refusal = (values: string[]) => runHelm(["template", "berth", CHART, ...KUBE_VERSION, ...values.flatMap((value) => ["--set", value])]).stderr;

type Manifest = { kind: string; metadata: { name: string }; data?: Record<string, string> };
const manifests = (rendered: string) => parseAllDocuments(rendered).map((document) => document.toJSON() as Manifest).filter(Boolean);

describe("the berth chart", () => {
  it("passes helm lint --strict", () => {
    const result = runHelm(["lint", "--strict", CHART]);
    expect(result.status, result.stdout + result.stderr).toBe(0);
  });

  it.each([
    { name: "default", values: [] },
    { name: "postgresql-ingress", values: ["store.kind=postgresql", "store.postgresql.existingSecret=berth-db", "replicaCount=2", "ingress.enabled=true", "ingress.host=berth.example.org", "ingress.tlsSecretName=berth-tls", "server.workspaceStorageClass=portable"] },
  ])("renders the $name manifests exactly as the golden file", ({ name, values }) => {
    expectGolden(TESTDATA, name, template(values));
  });

  it.each([
    { story: "more than one replica on the embedded store", values: ["replicaCount=2"], field: "replicaCount" },
    { story: "an unknown workspace backend", values: ["server.workspaceBackend=nfs"], field: "workspaceBackend" },
    { story: "an external store without its Secret", values: ["store.kind=postgresql"], field: "existingSecret" },
    { story: "a value the chart does not have", values: ["server.workspaceSize=5Gi"], field: "workspaceSize" },
  ])("refuses $story, naming the value", ({ values, field }) => {
    expect(refusal(values)).toContain(field);
  });

  // The schema is Go's RE2 (no lookahead), Berth's rules are zod: they must still agree.
  it.each([
    ...["2Gi", "500Mi", "0.5Gi", ".5Gi", "1e9", "500m", "0", "0Gi", "0.0", "-1Gi", "2GB", "Gi"].map((size) => ({ key: "workspaceDefaultStorageSize", value: size })),
    ...["/sandbox", "/work/space", "/", "/a/.hidden", "/a/..b", "/a/./b", "/a/../b", "/..", "/sandbox/", "//sandbox", "sandbox", "/mnt", "/mnt/berth-workspace", "/mnt/berth-workspace/x", "/mnt/other"].map((mountPath) => ({ key: "workspaceMountPath", value: mountPath })),
  ])("accepts server.$key=$value exactly when Berth's configuration does", ({ key, value }) => {
    const berthAccepts = gatewayDefaultsSchema.safeParse({ [key]: value }).success;
    const helmAccepts = !runHelm(["template", "berth", CHART, ...KUBE_VERSION, "--set-string", `server.${key}=${value}`]).stderr.includes(key);
    expect(helmAccepts).toBe(berthAccepts);
  });

  it("writes a config file Berth reads back as the same gateway defaults", () => {
    const configMap = manifests(template(["server.workspaceBackend=ephemeral", "server.workspaceDefaultStorageSize=5Gi", "server.workspaceStorageClass="])).find((one) => one.kind === "ConfigMap")!;
    const file = configMap.data!["berth.yaml"]!;
    const config = loadServerConfig({ env: { BERTH_CONFIG_FILE: "/etc/berth/berth.yaml", BERTH_CLUSTER: "embedded" }, cwd: "/", readFile: () => file, fileExists: () => true });
    expect(config.gateway).toEqual({ workspaceBackend: "ephemeral", workspaceDefaultStorageSize: "5Gi", workspaceStorageClass: "", workspaceMountPath: "/sandbox", sandboxNamespace: "default", labelPrefix: "berth.dev" });
  });

  it("leaves the storage class out of the config file when it is the cluster default", () => {
    const configMap = manifests(template()).find((one) => one.kind === "ConfigMap")!;
    expect(parse(configMap.data!["berth.yaml"]!)).not.toHaveProperty("server.workspaceStorageClass");
  });
});
