import { AuthenticationV1Api, AuthorizationV1Api, CoreV1Api, Exec, RbacAuthorizationV1Api, Watch, type V1PolicyRule } from "@kubernetes/client-node";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectionFor } from "../../kube/acting-as.ts";
import type { ClusterConnection } from "../../kube/cluster-connection.ts";
import { startSimFixture, type SimFixture } from "../testing/sim-fixture.ts";
import { kubeConfigFor } from "../testing/kube-client.ts";

// Who may do what on the embedded cluster, asked over HTTP through client-node as any client
// would: tokens (the admin's, service accounts' from TokenRequest), anonymous requests, RBAC
// roles and bindings, impersonation, the review APIs, and refusals in the API server's words.

let sim: SimFixture;
let rbac: RbacAuthorizationV1Api;
let counter = 0;
const unique = (what: string) => `${what}-${++counter}`;

beforeAll(async () => {
  sim = await startSimFixture();
  rbac = sim.config.makeApiClient(RbacAuthorizationV1Api);
  for (const name of ["team-a", "team-b"]) await sim.core.createNamespace({ body: { metadata: { name } } });
});
afterAll(() => sim.cluster.stop());

/** A service account with a fresh token from TokenRequest, and a client that uses it. */
async function serviceAccount(namespace = "team-a") {
  const name = unique("robot");
  await sim.core.createNamespacedServiceAccount({ namespace, body: { metadata: { name } } });
  const request = await sim.core.createNamespacedServiceAccountToken({ namespace, name, body: { spec: { audiences: [], expirationSeconds: 3600 } } });
  const token = request.status!.token!;
  const config = kubeConfigFor(sim.cluster.serverUrl, token);
  return { name, namespace, token, username: `system:serviceaccount:${namespace}:${name}`, core: config.makeApiClient(CoreV1Api), config };
}

async function clusterRole(rules: V1PolicyRule[], labels: Record<string, string> = {}) {
  const name = unique("role");
  await rbac.createClusterRole({ body: { metadata: { name, labels }, rules } });
  return name;
}

const user = (name: string) => ({ kind: "User", apiGroup: "rbac.authorization.k8s.io", name });

async function bindInNamespace(namespace: string, role: string, subjects: { kind: string; name: string; apiGroup?: string; namespace?: string }[]) {
  await rbac.createNamespacedRoleBinding({ namespace, body: { metadata: { name: unique("binding") }, roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: role }, subjects } });
}

async function bindClusterWide(role: string, subjects: { kind: string; name: string; apiGroup?: string; namespace?: string }[]) {
  await rbac.createClusterRoleBinding({ body: { metadata: { name: unique("binding") }, roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: role }, subjects } });
}

/** What a failed call's Status says. */
async function refusal(call: () => Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await call();
  } catch (error) {
    const { code, body } = error as { code: number; body?: string };
    // client-node keeps no body for a 401: the code says it all.
    return { code, message: body ? (JSON.parse(body) as { message: string }).message : code === 401 ? "Unauthorized" : String(error) };
  }
  throw new Error("the call was allowed");
}

/** May this user do this? SubjectAccessReview asked as the admin. */
async function may(username: string, groups: string[], resourceAttributes: Record<string, string>): Promise<boolean> {
  const review = await sim.config.makeApiClient(AuthorizationV1Api).createSubjectAccessReview({ body: { spec: { user: username, groups, resourceAttributes } } });
  return review.status!.allowed;
}

describe("authentication", () => {
  it("refuses a request with no token as system:anonymous, in the API server's words", async () => {
    const anonymous = kubeConfigFor(sim.cluster.serverUrl).makeApiClient(CoreV1Api);
    expect(await refusal(() => anonymous.listNamespacedPod({ namespace: "default" }))).toEqual({
      code: 403,
      message: 'pods is forbidden: User "system:anonymous" cannot list resource "pods" in API group "" in the namespace "default"',
    });
  });

  it("answers /healthz to anyone, as the bootstrap policy lets everyone", async () => {
    expect((await fetch(`${sim.cluster.serverUrl}/healthz`)).status).toBe(200);
  });

  it("refuses a token it did not issue with 401 Unauthorized", async () => {
    const forged = kubeConfigFor(sim.cluster.serverUrl, "not-a-token").makeApiClient(CoreV1Api);
    expect(await refusal(() => forged.listNamespacedPod({ namespace: "default" }))).toEqual({ code: 401, message: "Unauthorized" });
  });

  it("takes a service account's token from TokenRequest, as that service account", async () => {
    const robot = await serviceAccount();
    const self = await robot.config.makeApiClient(AuthenticationV1Api).createSelfSubjectReview({ body: {} });
    expect(self.status!.userInfo).toMatchObject({ username: robot.username, groups: ["system:serviceaccounts", "system:serviceaccounts:team-a", "system:authenticated"] });
  });

  it("tells whose a token is by TokenReview", async () => {
    const robot = await serviceAccount();
    const review = await sim.config.makeApiClient(AuthenticationV1Api).createTokenReview({ body: { spec: { token: robot.token } } });
    expect([review.status!.authenticated, review.status!.user?.username]).toEqual([true, robot.username]);
  });

  it("stops taking a token once its service account is deleted", async () => {
    const robot = await serviceAccount();
    await sim.core.deleteNamespacedServiceAccount({ namespace: robot.namespace, name: robot.name });
    const review = await sim.config.makeApiClient(AuthenticationV1Api).createTokenReview({ body: { spec: { token: robot.token } } });
    expect([review.status!.authenticated ?? false, await refusal(() => robot.core.listNamespacedPod({ namespace: "team-a" }))]).toEqual([false, { code: 401, message: "Unauthorized" }]);
  });

  it("refuses to issue a token for less than ten minutes", async () => {
    const name = unique("robot");
    await sim.core.createNamespacedServiceAccount({ namespace: "team-a", body: { metadata: { name } } });
    const refused = await refusal(() => sim.core.createNamespacedServiceAccountToken({ namespace: "team-a", name, body: { spec: { audiences: [], expirationSeconds: 60 } } }));
    expect(refused.code).toBe(422);
  });
});

describe("RBAC", () => {
  it("takes names with colons for roles and bindings, as Kubernetes' own system:… ones", async () => {
    const role = await clusterRole([{ apiGroups: [""], resources: ["pods"], verbs: ["get"] }]);
    const created = await rbac.createClusterRoleBinding({ body: { metadata: { name: `${role}:viewers` }, roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: role }, subjects: [user("someone")] } });
    expect(created.metadata?.name).toBe(`${role}:viewers`);
  });

  it("refuses a role name with a slash, which could not be a path segment", async () => {
    expect((await refusal(() => rbac.createClusterRole({ body: { metadata: { name: "a/b" }, rules: [] } }))).code).toBe(422);
  });

  it("grants a ClusterRole bound by a RoleBinding in that namespace only", async () => {
    const role = await clusterRole([{ apiGroups: [""], resources: ["pods"], verbs: ["list"] }]);
    await bindInNamespace("team-a", role, [user("ann")]);
    expect([await may("ann", [], { namespace: "team-a", verb: "list", resource: "pods" }), await may("ann", [], { namespace: "team-b", verb: "list", resource: "pods" })]).toEqual([true, false]);
  });

  it("grants to a group's members", async () => {
    const role = await clusterRole([{ apiGroups: ["agents.x-k8s.io"], resources: ["sandboxes"], verbs: ["create"] }]);
    await bindInNamespace("team-b", role, [{ kind: "Group", apiGroup: "rbac.authorization.k8s.io", name: "oidc:team-b" }]);
    expect([await may("bea", ["oidc:team-b"], { namespace: "team-b", verb: "create", group: "agents.x-k8s.io", resource: "sandboxes" }), await may("bea", ["oidc:team-c"], { namespace: "team-b", verb: "create", group: "agents.x-k8s.io", resource: "sandboxes" })]).toEqual([true, false]);
  });

  it("limits a rule with resourceNames to those names", async () => {
    const role = await clusterRole([{ apiGroups: [""], resources: ["configmaps"], resourceNames: ["allowed"], verbs: ["get"] }]);
    await bindInNamespace("team-a", role, [user("cara")]);
    expect([await may("cara", [], { namespace: "team-a", verb: "get", resource: "configmaps", name: "allowed" }), await may("cara", [], { namespace: "team-a", verb: "get", resource: "configmaps", name: "other" })]).toEqual([true, false]);
  });

  it("matches subresources exactly, and */subresource", async () => {
    const exec = await clusterRole([{ apiGroups: [""], resources: ["pods/exec"], verbs: ["create"] }]);
    await bindInNamespace("team-a", exec, [user("dev")]);
    expect([await may("dev", [], { namespace: "team-a", verb: "create", resource: "pods", subresource: "exec" }), await may("dev", [], { namespace: "team-a", verb: "create", resource: "pods" })]).toEqual([true, false]);
  });

  it("authorizes a node proxy request as nodes/proxy, whatever path it proxies", async () => {
    const robot = await serviceAccount();
    const nodeName = (await sim.core.listNode()).items[0]!.metadata!.name!;
    const refused = await refusal(() => robot.core.connectGetNodeProxyWithPath({ name: nodeName, path: "stats/summary" }));
    const role = await clusterRole([{ apiGroups: [""], resources: ["nodes/proxy"], verbs: ["get"] }]);
    await bindClusterWide(role, [{ kind: "ServiceAccount", name: robot.name, namespace: robot.namespace }]);
    const summary = await robot.core.connectGetNodeProxyWithPath({ name: nodeName, path: "stats/summary" });
    expect([refused.message, typeof summary]).toEqual([`nodes "${nodeName}" is forbidden: User "${robot.username}" cannot get resource "nodes/proxy" in API group "" at the cluster scope`, "object"]);
  });

  it("grants virtual resources of any group, as applications authorize their own", async () => {
    const role = await clusterRole([{ apiGroups: ["berth.dev"], resources: ["maintenanceruns"], verbs: ["create"] }]);
    await bindClusterWide(role, [user("ops")]);
    expect(await may("ops", [], { verb: "create", group: "berth.dev", resource: "maintenanceruns" })).toBe(true);
  });

  it("grants non-resource URLs by prefix", async () => {
    const role = await clusterRole([{ nonResourceURLs: ["/metrics", "/debug/*"], verbs: ["get"] }]);
    await bindClusterWide(role, [user("scraper")]);
    const ask = (path: string) =>
      sim.config.makeApiClient(AuthorizationV1Api).createSubjectAccessReview({ body: { spec: { user: "scraper", nonResourceAttributes: { path, verb: "get" } } } }).then((review) => review.status!.allowed);
    expect([await ask("/metrics"), await ask("/debug/pprof"), await ask("/secret")]).toEqual([true, true, false]);
  });

  it("fills an aggregated ClusterRole with the rules of the roles its selector matches, following label changes", async () => {
    const label = unique("aggregate");
    const aggregated = unique("aggregated");
    await rbac.createClusterRole({ body: { metadata: { name: aggregated }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [label]: "true" } }] }, rules: [] } });
    await bindClusterWide(aggregated, [user("agg")]);
    const before = await may("agg", [], { verb: "list", resource: "nodes" });
    await clusterRole([{ apiGroups: [""], resources: ["nodes"], verbs: ["list"] }], { [label]: "true" });
    expect([before, await may("agg", [], { verb: "list", resource: "nodes" })]).toEqual([false, true]);
  });

  it("says which binding allowed a request", async () => {
    const role = await clusterRole([{ apiGroups: [""], resources: ["pods"], verbs: ["get"] }]);
    await bindInNamespace("team-a", role, [user("erin")]);
    const review = await sim.config.makeApiClient(AuthorizationV1Api).createSubjectAccessReview({ body: { spec: { user: "erin", resourceAttributes: { namespace: "team-a", verb: "get", resource: "pods" } } } });
    expect(review.status!.reason).toMatch(new RegExp(`^RBAC: allowed by RoleBinding ".+/team-a" of ClusterRole "${role}" to User "erin"$`));
  });

  it("lists what a person may do in a namespace (SelfSubjectRulesReview)", async () => {
    const robot = await serviceAccount();
    const role = await clusterRole([{ apiGroups: [""], resources: ["pods"], verbs: ["get", "list"] }]);
    await bindInNamespace("team-a", role, [{ kind: "ServiceAccount", name: robot.name, namespace: "team-a" }]);
    const rules = await robot.config.makeApiClient(AuthorizationV1Api).createSelfSubjectRulesReview({ body: { spec: { namespace: "team-a" } } });
    expect(rules.status!.resourceRules).toEqual(expect.arrayContaining([expect.objectContaining({ resources: ["pods"], verbs: ["get", "list"] })]));
  });

  it("refuses a watch the person may not make", async () => {
    const robot = await serviceAccount();
    const ended = await new Promise<unknown>((resolve) => {
      void new Watch(robot.config).watch("/api/v1/namespaces/team-b/pods", {}, () => {}, resolve).catch(resolve);
    });
    expect(String(ended)).toMatch(/403|Forbidden/);
  });

  it("refuses an exec the person may not run, before the WebSocket opens", async () => {
    const robot = await serviceAccount();
    const outcome = await new Exec(robot.config)
      .exec("team-a", "nowhere", "agent", ["true"], new Writable({ write: (_chunk, _encoding, done) => done() }), null, null, false)
      .then(() => "opened", (error: { message?: string }) => error.message ?? String(error));
    expect(outcome).toMatch(/403/);
  });

  it("lets only the cluster's admin use the fault API", async () => {
    const robot = await serviceAccount();
    const asRobot = await fetch(`${sim.cluster.serverUrl}/sim/v1/state`, { headers: { Authorization: `Bearer ${robot.token}` } });
    const asAdmin = await fetch(`${sim.cluster.serverUrl}/sim/v1/state`, { headers: { Authorization: `Bearer ${sim.cluster.adminToken}` } });
    expect([asRobot.status, asAdmin.status]).toEqual([403, 200]);
  });
});

describe("impersonation", () => {
  let robot: Awaited<ReturnType<typeof serviceAccount>>;
  let asRobot: ClusterConnection;

  beforeAll(async () => {
    robot = await serviceAccount("default");
    const role = await clusterRole([{ apiGroups: [""], resources: ["users", "groups"], verbs: ["impersonate"] }]);
    await bindClusterWide(role, [{ kind: "ServiceAccount", name: robot.name, namespace: "default" }]);
    asRobot = { mode: "embedded", server: sim.cluster.serverUrl, kubeConfig: robot.config };
  });

  it("acts as the impersonated user with every group sent, one header line each", async () => {
    const alice = connectionFor(asRobot, { kind: "impersonate", person: { username: "alice", groups: ["oidc:team-a", "oidc:viewers"] } });
    const self = await alice.kubeConfig.makeApiClient(AuthenticationV1Api).createSelfSubjectReview({ body: {} });
    expect(self.status!.userInfo).toMatchObject({ username: "alice", groups: ["oidc:team-a", "oidc:viewers", "system:authenticated"] });
  });

  it("is decided by RBAC as the impersonated user, refusing in their name", async () => {
    const alice = connectionFor(asRobot, { kind: "impersonate", person: { username: "alice", groups: [] } });
    expect(await refusal(() => alice.kubeConfig.makeApiClient(CoreV1Api).listNamespacedPod({ namespace: "team-b" }))).toEqual({
      code: 403,
      message: 'pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "team-b"',
    });
  });

  it("is refused to one who may not impersonate, in the API server's words", async () => {
    const other = await serviceAccount("team-b");
    const connection = connectionFor({ mode: "embedded", server: sim.cluster.serverUrl, kubeConfig: other.config }, { kind: "impersonate", person: { username: "alice", groups: [] } });
    expect(await refusal(() => connection.kubeConfig.makeApiClient(CoreV1Api).listNamespacedPod({ namespace: "team-b" }))).toEqual({
      code: 403,
      message: `users "alice" is forbidden: User "${other.username}" cannot impersonate resource "users" in API group "" at the cluster scope`,
    });
  });

  it("checks each group on its own: resourceNames can limit which ones", async () => {
    const limited = await serviceAccount("default");
    const role = await clusterRole([
      { apiGroups: [""], resources: ["users"], verbs: ["impersonate"] },
      { apiGroups: [""], resources: ["groups"], resourceNames: ["oidc:team-a"], verbs: ["impersonate"] },
    ]);
    await bindClusterWide(role, [{ kind: "ServiceAccount", name: limited.name, namespace: "default" }]);
    const base = { mode: "embedded" as const, server: sim.cluster.serverUrl, kubeConfig: limited.config };
    const fine = connectionFor(base, { kind: "impersonate", person: { username: "alice", groups: ["oidc:team-a"] } });
    const greedy = connectionFor(base, { kind: "impersonate", person: { username: "alice", groups: ["oidc:team-a", "system:masters"] } });
    const selfOf = (connection: ClusterConnection) => connection.kubeConfig.makeApiClient(AuthenticationV1Api).createSelfSubjectReview({ body: {} });
    expect([(await selfOf(fine)).status!.userInfo!.username, (await refusal(() => selfOf(greedy))).message]).toEqual([
      "alice",
      `groups "system:masters" is forbidden: User "${limited.username}" cannot impersonate resource "groups" in API group "" at the cluster scope`,
    ]);
  });
});
