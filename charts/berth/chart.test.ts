import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import { resolveAuth } from "../../lib/config/auth-config.ts";
import { loadServerConfig } from "../../lib/config/server-config.ts";
import { BERTH_LEADER_ELECTION_RULES, BERTH_ROLES, BERTH_SERVICE_ACCOUNT_RULES, BERTH_VOLUME_USAGE_RULE } from "../../lib/domain/berth-roles.ts";
import { gatewayDefaultsSchema } from "../../lib/domain/gateway-defaults.ts";
import { berthLabelKeys } from "../../lib/domain/labels.ts";
import { berthResourceDefinitions } from "../../lib/render/berth-resource-definitions.ts";
import { toYaml } from "../../lib/render/yaml.ts";
import { expectGolden } from "../../lib/testing/golden-files.ts";

// The Helm chart through helm itself (built from its Go module by scripts/tools/build-helm.sh;
// `npm test` passes its path in BERTH_HELM): lint, the rendered manifests as golden files, the
// values schema's refusals, the config file and environment it writes read back by Berth's own
// loaders, and its roles checked against the ones Berth's code names.

const CHART = dirname(fileURLToPath(import.meta.url));
const TESTDATA = join(CHART, "testdata");
const CRDS = join(CHART, "crds", "berth.dev.yaml");
const BERTH_CRDS_HEADER = "# Berth's own resources, as lib/render/berth-resource-definitions.ts defines them (UPDATE_GOLDEN=1 npm test chart rewrites this file).\n";
const helm = process.env["BERTH_HELM"];
/** The Kubernetes release the real control plane lane runs (scripts/cluster/versions.sh): what Berth is tested with. */
const TESTED_KUBERNETES = /KUBERNETES_VERSION=v([\d.]+)/.exec(readFileSync(join(CHART, "..", "..", "scripts", "cluster", "versions.sh"), "utf8"))![1]!;
/** helm built from source says it talks to Kubernetes v1.20; render for the release Berth is tested with. */
const KUBE_VERSION = ["--kube-version", TESTED_KUBERNETES];

function runHelm(args: string[]) {
  if (!helm) throw new Error("BERTH_HELM is not set: run the chart tests through `npm test` (or `npm test chart`), which builds helm first");
  return spawnSync(helm, args, { encoding: "utf8" });
}

/** What every install must say: where people reach Berth and who proves who they are. */
const REQUIRED = ["auth.publicUrl=https://berth.example.com", "auth.oidc.issuer=https://id.example.com"];

function template(values: string[] = REQUIRED, files: string[] = []): string {
  const result = runHelm(["template", "berth", CHART, "--namespace", "berth-system", ...KUBE_VERSION, ...files.flatMap((file) => ["-f", file]), ...values.flatMap((value) => ["--set", value])]);
  if (result.status !== 0) throw new Error(result.stderr);
  return result.stdout;
}

/** Renders with a values file (lists of objects are clumsy with --set). */
function templateWithValues(values: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), "berth-chart-"));
  try {
    const file = join(dir, "values.json");
    writeFileSync(file, JSON.stringify(values));
    return template(REQUIRED, [file]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const refusal = (values: string[]) => runHelm(["template", "berth", CHART, ...KUBE_VERSION, ...values.flatMap((value) => ["--set", value])]).stderr;

type Rule = { apiGroups?: string[]; resources?: string[]; verbs: string[]; nonResourceURLs?: string[] };
type EnvVar = { name: string; value?: string; valueFrom?: { secretKeyRef: { name: string; key: string } } };
type Manifest = {
  kind: string;
  metadata: { name: string; namespace?: string };
  data?: Record<string, string>;
  rules?: Rule[];
  roleRef?: { name: string };
  subjects?: { kind: string; name: string }[];
  spec?: {
    maxUnavailable?: number;
    replicas?: number;
    selector?: unknown;
    template: { spec: { containers: { env: EnvVar[] }[]; topologySpreadConstraints?: { topologyKey: string }[] } };
  };
};
const manifests = (rendered: string) => parseAllDocuments(rendered).map((document) => document.toJSON() as Manifest).filter(Boolean);

describe("the berth chart", () => {
  it("asks for the Kubernetes minor Berth is tested with, or later", () => {
    const [major, minor] = TESTED_KUBERNETES.split(".");
    expect(readFileSync(join(CHART, "Chart.yaml"), "utf8")).toContain(`kubeVersion: ">=${major}.${minor}.0-0"`);
  });

  it("refuses a Kubernetes older than the one Berth is tested with", () => {
    const result = runHelm(["template", "berth", CHART, "--kube-version", "1.30.0", ...REQUIRED.flatMap((value) => ["--set", value])]);
    expect(result.stderr).toContain("incompatible with Kubernetes v1.30.0");
  });

  it("renders the install guide's values (docs/examples/values.yaml)", () => {
    const rendered = manifests(template([], [join(CHART, "..", "..", "docs", "examples", "values.yaml")]));
    expect(rendered.find((manifest) => manifest.kind === "Deployment")?.spec?.replicas).toBe(3);
  });

  it("passes helm lint --strict", () => {
    const result = runHelm(["lint", "--strict", CHART, ...REQUIRED.flatMap((value) => ["--set", value])]);
    expect(result.status, result.stdout + result.stderr).toBe(0);
  });

  it.each([
    // A session Secret of their own: the one the chart makes is random (tested below).
    { name: "default", values: [...REQUIRED, "auth.session.existingSecret=berth-session"] },
    { name: "postgresql-ingress", values: ["auth.oidc.issuer=https://id.example.com", "auth.session.existingSecret=berth-session", "store.kind=postgresql", "store.postgresql.existingSecret=berth-db", "replicaCount=2", "ingress.enabled=true", "ingress.host=berth.example.org", "ingress.tlsSecretName=berth-tls", "server.workspaceStorageClass=portable"] },
  ])("renders the $name manifests exactly as the golden file", ({ name, values }) => {
    expectGolden(TESTDATA, name, template(values));
  });

  it.each([
    { story: "more than one replica on the embedded store", values: [...REQUIRED, "replicaCount=2"], field: "replicaCount" },
    { story: "an unknown workspace backend", values: [...REQUIRED, "server.workspaceBackend=nfs"], field: "workspaceBackend" },
    { story: "an external store without its Secret", values: [...REQUIRED, "store.kind=postgresql"], field: "existingSecret" },
    { story: "a value the chart does not have", values: [...REQUIRED, "server.workspaceSize=5Gi"], field: "workspaceSize" },
    { story: "a limit that is no quantity", values: [...REQUIRED, "limits.maxMemory=lots"], field: "maxMemory" },
    { story: "a body cap under 1 KiB", values: [...REQUIRED, "limits.maxBodyBytes=10"], field: "maxBodyBytes" },
    { story: "no public URL and no ingress to take it from", values: ["auth.oidc.issuer=https://id.example.com"], field: "publicUrl" },
    { story: "OIDC sign-in without an issuer", values: ["auth.publicUrl=https://berth.example.com"], field: "issuer" },
    { story: "proxy sign-in without the proxy's addresses", values: ["auth.publicUrl=https://berth.example.com", "auth.mode=proxy"], field: "trustedAddresses" },
    { story: "no sign-in at all", values: [...REQUIRED, "auth.mode=none"], field: "mode" },
    { story: "a namespace role bound cluster-wide", values: [...REQUIRED, "rbac.bindings[0].group=dev", "rbac.bindings[0].role=berth-developer"], field: "namespaces" },
  ])("refuses $story, naming the value", ({ values, field }) => {
    expect(refusal(values)).toContain(field);
  });

  // The schema is Go's RE2 (no lookahead), Berth's rules are zod: they must still agree.
  it.each([
    ...["2Gi", "500Mi", "0.5Gi", ".5Gi", "1e9", "500m", "0", "0Gi", "0.0", "-1Gi", "2GB", "Gi"].map((size) => ({ key: "workspaceDefaultStorageSize", value: size })),
    ...["/sandbox", "/work/space", "/", "/a/.hidden", "/a/..b", "/a/./b", "/a/../b", "/..", "/sandbox/", "//sandbox", "sandbox", "/mnt", "/mnt/berth-workspace", "/mnt/berth-workspace/x", "/mnt/other", "/proc", "/proc/1", "/dev/shm", "/etc", "/etc/agent", "/usr/local/work", "/a b", "/a'b", "/a$(id)", "/home/agent/.claude", "/x/@cache"].map((mountPath) => ({ key: "workspaceMountPath", value: mountPath })),
  ])("accepts server.$key=$value exactly when Berth's configuration does", ({ key, value }) => {
    const berthAccepts = gatewayDefaultsSchema.safeParse({ [key]: value }).success;
    const helmAccepts = !runHelm(["template", "berth", CHART, ...KUBE_VERSION, ...REQUIRED.flatMap((one) => ["--set", one]), "--set-string", `server.${key}=${value}`]).stderr.includes(key);
    expect(helmAccepts).toBe(berthAccepts);
  });

  it("writes a config file Berth reads back as the same gateway defaults", () => {
    const configMap = manifests(template([...REQUIRED, "server.workspaceBackend=ephemeral", "server.workspaceDefaultStorageSize=5Gi", "server.workspaceStorageClass="])).find((one) => one.kind === "ConfigMap")!;
    const file = configMap.data!["berth.yaml"]!;
    const config = loadServerConfig({ env: { BERTH_CONFIG_FILE: "/etc/berth/berth.yaml", BERTH_CLUSTER: "embedded" }, cwd: "/", readFile: () => file, fileExists: () => true });
    expect(config.gateway).toEqual({ workspaceBackend: "ephemeral", workspaceDefaultStorageSize: "5Gi", workspaceStorageClass: "", workspaceMountPath: "/sandbox", sandboxNamespace: "default", labelPrefix: "berth.dev" });
  });

  it("writes the limits into the config file, and Berth reads them back", () => {
    const configMap = manifests(template([...REQUIRED, "limits.maxCpu=4", "limits.maxSandboxesPerNamespace=20"])).find((one) => one.kind === "ConfigMap")!;
    const file = configMap.data!["berth.yaml"]!;
    const config = loadServerConfig({ env: { BERTH_CONFIG_FILE: "/etc/berth/berth.yaml", BERTH_CLUSTER: "embedded" }, cwd: "/", readFile: () => file, fileExists: () => true });
    expect(config.limits).toMatchObject({ maxCpu: "4", maxMemory: "64Gi", maxSandboxesPerNamespace: 20 });
  });

  it("ships Berth's own default limits, so the chart and a bare start agree", () => {
    const configMap = manifests(template()).find((one) => one.kind === "ConfigMap")!;
    const bare = loadServerConfig({ env: { BERTH_CLUSTER: "embedded" }, cwd: "/", readFile: () => "", fileExists: () => false });
    expect(parse(configMap.data!["berth.yaml"]!).limits).toEqual(bare.limits);
  });

  describe("the NetworkPolicy", () => {
    const policyOf = (values: string[] = REQUIRED) => manifests(template(values)).find((one) => one.kind === "NetworkPolicy") as (Manifest & { spec: { podSelector: unknown; ingress: { from: { namespaceSelector: { matchExpressions: unknown[] }; podSelector: { matchExpressions: unknown[] } }[]; ports: unknown[] }[] } }) | undefined;

    it("lets in only pods of the allowed namespaces, on Berth's port", () => {
      const rule = policyOf([...REQUIRED, "networkPolicy.allowedNamespaces={ingress,monitoring}"])!.spec.ingress;
      expect([rule.length, rule[0]!.from[0]!.namespaceSelector.matchExpressions, rule[0]!.ports]).toEqual([
        1,
        [{ key: "kubernetes.io/metadata.name", operator: "In", values: ["ingress", "monitoring"] }],
        [{ port: "http", protocol: "TCP" }],
      ]);
    });

    it("never lets in a sandbox pod: the label it excludes is the one Berth puts on sandbox pods", () => {
      const rule = policyOf([...REQUIRED, "server.labelPrefix=agents.example.com"])!.spec.ingress[0]!;
      expect(rule.from[0]!.podSelector.matchExpressions).toEqual([{ key: berthLabelKeys("agents.example.com").sandboxId, operator: "DoesNotExist" }]);
    });

    it("selects Berth's own pods", () => {
      const rendered = manifests(template());
      const deployment = rendered.find((one) => one.kind === "Deployment") as unknown as { spec: { template: { metadata: { labels: Record<string, string> } } } };
      const selector = (policyOf()!.spec.podSelector as { matchLabels: Record<string, string> }).matchLabels;
      expect(deployment.spec.template.metadata.labels).toMatchObject(selector);
    });

    it("is left out when disabled", () => {
      expect(policyOf([...REQUIRED, "networkPolicy.enabled=false"])).toBeUndefined();
    });
  });

  it("leaves the storage class out of the config file when it is the cluster default", () => {
    const configMap = manifests(template()).find((one) => one.kind === "ConfigMap")!;
    expect(parse(configMap.data!["berth.yaml"]!)).not.toHaveProperty("server.workspaceStorageClass");
  });

  it("gives Berth's service account exactly the rules Berth's code says it needs", () => {
    const role = manifests(template()).find((one) => one.kind === "ClusterRole" && one.metadata.name === "berth")!;
    expect(role.rules).toEqual(BERTH_SERVICE_ACCOUNT_RULES);
  });

  it("lets Berth read the kubelets' volume stats only when rbac.readVolumeUsage says so", () => {
    const rules = (rendered: string) => manifests(rendered).find((one) => one.kind === "ClusterRole" && one.metadata.name === "berth")!.rules;
    expect(rules(template([...REQUIRED, "rbac.readVolumeUsage=true"]))).toEqual([...BERTH_SERVICE_ACCOUNT_RULES, BERTH_VOLUME_USAGE_RULE]);
  });

  it("lets Berth's replicas elect their writer on a Lease in the release's namespace, with PostgreSQL only", () => {
    const roles = (rendered: string) => manifests(rendered).filter((one) => one.kind === "Role").map((role) => ({ name: role.metadata.name, namespace: role.metadata.namespace, rules: role.rules }));
    const postgresql = ["store.kind=postgresql", "store.postgresql.existingSecret=berth-db", "replicaCount=2"];
    expect({ embedded: roles(template()), postgresql: roles(template([...REQUIRED, ...postgresql])) }).toEqual({
      embedded: [],
      postgresql: [{ name: "berth-leader-election", namespace: "berth-system", rules: BERTH_LEADER_ELECTION_RULES }],
    });
  });

  it("lets a drain take several replicas' pods one at a time, spread over nodes and zones", () => {
    const rendered = manifests(template([...REQUIRED, "store.kind=postgresql", "store.postgresql.existingSecret=berth-db", "replicaCount=3"]));
    const budget = rendered.find((one) => one.kind === "PodDisruptionBudget")!;
    const pods = rendered.find((one) => one.kind === "Deployment")!.spec!;
    expect({ budget: budget.spec, spreadOver: pods.template.spec.topologySpreadConstraints?.map((constraint) => constraint.topologyKey) }).toEqual({
      budget: { maxUnavailable: 1, selector: pods.selector },
      spreadOver: ["kubernetes.io/hostname", "topology.kubernetes.io/zone"],
    });
  });

  it("leaves one replica without a budget or a spread, which would only stand in a drain's way", () => {
    const rendered = manifests(template());
    expect({ budgets: rendered.filter((one) => one.kind === "PodDisruptionBudget").length, spread: rendered.find((one) => one.kind === "Deployment")!.spec!.template.spec.topologySpreadConstraints }).toEqual({ budgets: 0, spread: undefined });
  });

  it("ships the roles people are bound to, as Berth's code names them", () => {
    const shipped = manifests(template()).filter((one) => one.kind === "ClusterRole" && one.metadata.name !== "berth");
    expect(shipped.map((role) => ({ name: role.metadata.name, rules: role.rules }))).toEqual(BERTH_ROLES.map((role) => ({ name: role.name, rules: role.rules })));
  });

  it("binds a team's group in each of its namespaces, and to the cluster-wide reads the console needs", () => {
    const bindings = manifests(templateWithValues({ rbac: { bindings: [{ group: "oidc:team-a", role: "berth-developer", namespaces: ["team-a", "team-a-ci"] }] } }))
      .filter((one) => one.kind.endsWith("Binding") && one.roleRef?.name !== "berth")
      .map((one) => ({ kind: one.kind, namespace: one.metadata.namespace, role: one.roleRef!.name, subjects: one.subjects }))
      // helm orders by kind only.
      .sort((a, b) => `${a.kind}/${a.namespace}`.localeCompare(`${b.kind}/${b.namespace}`));
    const subjects = [{ apiGroup: "rbac.authorization.k8s.io", kind: "Group", name: "oidc:team-a" }];
    expect(bindings).toEqual([
      { kind: "ClusterRoleBinding", namespace: undefined, role: "berth-cluster-viewer", subjects },
      { kind: "RoleBinding", namespace: "team-a", role: "berth-developer", subjects },
      { kind: "RoleBinding", namespace: "team-a-ci", role: "berth-developer", subjects },
    ]);
  });

  it("declares Berth's own resources, exactly as Berth's code defines them", () => {
    if (process.env["UPDATE_GOLDEN"] === "1") writeFileSync(CRDS, BERTH_CRDS_HEADER + berthResourceDefinitions().map((definition) => `---\n${toYaml(definition)}`).join(""));
    const declared = manifests(runHelm(["template", "berth", CHART, "--include-crds", ...KUBE_VERSION, ...REQUIRED.flatMap((value) => ["--set", value])]).stdout)
      .filter((one) => one.kind === "CustomResourceDefinition");
    expect(declared).toEqual(berthResourceDefinitions());
  });

  it("makes the session key once, 48 random characters, when none is given", () => {
    const secret = manifests(template()).find((one) => one.kind === "Secret")!;
    expect(Buffer.from(secret.data!.BERTH_SESSION_SECRET!, "base64").toString()).toMatch(/^[A-Za-z0-9]{48}$/);
  });

  it("sets the sign-in environment Berth reads back as the same configuration", () => {
    const rendered = manifests(template(["auth.publicUrl=https://berth.example.com", "auth.allowedHosts[0]=berth.berth-system.svc:80", "auth.oidc.issuer=https://id.example.com", "auth.oidc.usernameClaim=email", "auth.oidc.groupsPrefix=oidc:", "server.namespaces[0]=team-a"]));
    const secret = rendered.find((one) => one.kind === "Secret")!;
    const env = Object.fromEntries(
      rendered.find((one) => one.kind === "Deployment")!.spec!.template.spec.containers[0]!.env.map((variable) => [
        variable.name,
        variable.value ?? Buffer.from(secret.data![variable.valueFrom!.secretKeyRef.key]!, "base64").toString(),
      ]),
    );
    const problems: string[] = [];
    const auth = resolveAuth(env, "in-cluster", problems);
    expect({ problems, auth: { ...auth, sessionSecret: "…" }, namespaces: env.BERTH_NAMESPACES }).toEqual({
      problems: [],
      auth: expect.objectContaining({ mode: "oidc", publicUrl: "https://berth.example.com", allowedHosts: ["berth.example.com", "berth.berth-system.svc:80"], sessionSecret: "…", oidc: expect.objectContaining({ issuer: "https://id.example.com", usernameClaim: "email", usernamePrefix: "", groupsPrefix: "oidc:" }) }),
      namespaces: "team-a",
    });
  });
});
