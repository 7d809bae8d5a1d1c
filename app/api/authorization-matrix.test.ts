import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { CoreV1Api, CustomObjectsApi } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { qualifiedResource } from "@/lib/domain/access.ts";
import { ENDPOINT_IDS, ENDPOINTS, type Access, type EndpointId } from "@/lib/domain/endpoints.ts";
import type { Person } from "@/lib/domain/person.ts";
import type { SandboxRecord } from "@/lib/domain/sandbox-record.ts";
import type { Volume } from "@/lib/domain/volume.ts";
import { demoPersonIdentity } from "@/lib/identity/demo-people.ts";
import { connectionFor } from "@/lib/kube/acting-as.ts";
import { connectToRealCluster } from "@/lib/kube/cluster-connection.ts";
import { nodeResources } from "@/lib/kube/node-resources.ts";
import { seedDemoTenants } from "@/lib/server/embedded-cluster-seed.ts";
import { eventually } from "@/lib/sim/testing/eventually.ts";
import { findKubectl } from "@/lib/sim/testing/kubectl.ts";
import { startApiUnderTest, type ApiRequest, type ApiUnderTest } from "./testing/api-under-test.ts";

// The authorization matrix: every endpoint of the table, asked by each demo person and by
// someone not signed in, answers what that person's RBAC bindings say. The rows come from the
// endpoint table, so a new endpoint fails to compile here until someone says who may call it.
// It runs on the embedded cluster in `npm test`, and in `npm run test:cluster` on a real control
// plane, as the Helm chart's service account: real RBAC, real impersonation, real
// SubjectAccessReview. Kubernetes is the judge, and it must agree with the embedded cluster.
//
// Who is asking (lib/identity/demo-people.ts): paula is a platform admin; alex develops in
// team-a; bea develops in team-b; victor views team-a and team-b. Every target is in team-a.
//
// And what Berth does, `kubectl auth can-i` tells: each endpoint's question to Kubernetes, asked
// with kubectl as each person (--as, --as-group), answers yes exactly where the matrix says Berth
// lets that person through.

const REAL_CLUSTER = process.env.BERTH_TEST_KUBECONFIG;
const OPERATOR_KUBECONFIG = process.env.BERTH_TEST_OPERATOR_KUBECONFIG || REAL_CLUSTER;
const TEAM = "team-a";
const PORTABLE_CLASS = "portable";

const CALLERS = ["anonymous", "victor", "bea", "alex", "paula"] as const;
type Caller = (typeof CALLERS)[number];

const person = (id: Exclude<Caller, "anonymous">): Person => demoPersonIdentity(id);
const identityOf = (caller: Caller): Person | null => (caller === "anonymous" ? null : person(caller));

/** Who gets what: [anonymous, victor, bea, alex, paula]. */
type Answers = readonly [number, number, number, number, number];

/** Anyone at all. */
const everyone = (status: number): Answers => [status, status, status, status, status];
/** Anyone signed in; a stranger is asked to sign in. */
const signedIn = (status: number): Answers => [401, status, status, status, status];
/** Whoever may see team-a's sandboxes; bea, who may not, is told there is no such sandbox. */
const seesTeamSandboxes = (status: number): Answers => [401, status, 404, status, status];
/** Whoever develops in team-a; victor sees the sandbox and is refused, bea does not see it. */
const developsTeamSandboxes = (status: number): Answers => [401, 403, 404, status, status];
/** Whoever develops in team-a, where the target is not a sandbox (a claim, a create). */
const developsInTeam = (status: number): Answers => [401, 403, 403, status, status];
/** Whoever may see team-a (its viewer and developer, and the admin); bea, of team-b, is refused. */
const seesTeam = (status: number): Answers => [401, status, 403, status, status];
/** The platform admin only. */
const platformAdmin = (status: number): Answers => [401, 403, 403, 403, status];

interface Cell {
  /** The request; `allowed` callers get targets of their own where the call uses its target up. */
  request(allowed: boolean): Promise<ApiRequest>;
  answers: Answers;
  /** Why an allowed caller's answer is not a 2xx, where it is not. */
  because?: string;
}

let api: ApiUnderTest;

const unique = (() => {
  let count = 0;
  const run = Math.random().toString(36).slice(2, 6);
  return (base: string) => `${base}-${run}-${++count}`;
})();

const sandboxSpec = (name: string, workspace: Record<string, unknown> = { backend: "ephemeral" }) => ({
  name,
  namespace: TEAM,
  workspace,
  // A real grace period passes in real time.
  disruptionPolicy: { terminationGracePeriodSeconds: 3 },
});

async function asPaula(id: EndpointId, request: ApiRequest, expected: number) {
  const answer = await api.call(id, person("paula"), request);
  if (answer.status !== expected) throw new Error(`${id} as paula answered ${answer.status}, not ${expected}: ${answer.text}`);
  return answer.json;
}

async function sandboxWhen(id: string, phase: SandboxRecord["phase"]): Promise<SandboxRecord> {
  return eventually(async () => {
    const record = (await asPaula("getSandbox", { params: { id } }, 200)) as SandboxRecord;
    if (record.phase !== phase) throw new Error(`${record.name} is ${record.phase}/${record.reason}, not ${phase}`);
    return record;
  }, { timeoutMs: REAL_CLUSTER ? 120_000 : 30_000, intervalMs: 250 });
}

/** A Ready sandbox in team-a, made by the platform admin. */
async function readySandbox(workspace?: Record<string, unknown>): Promise<SandboxRecord> {
  const created = (await asPaula("createSandbox", { body: sandboxSpec(unique("matrix"), workspace) }, 201)) as SandboxRecord;
  return sandboxWhen(created.id, "Ready");
}

async function stoppedSandbox(): Promise<SandboxRecord> {
  const record = await readySandbox();
  await asPaula("stopSandbox", { params: { id: record.id } }, 202);
  return sandboxWhen(record.id, "Stopped");
}

/** A bound workspace claim of a portable class, kept after its sandbox was deleted: nothing uses it. */
async function keptClaim(): Promise<{ namespace: string; name: string }> {
  const name = unique("kept");
  const record = await readySandbox({ claim: { ownership: "retain", claimName: name, size: "1Gi", storageClassName: PORTABLE_CLASS } });
  await asPaula("deleteSandbox", { params: { id: record.id } }, 200);
  await eventually(async () => {
    const page = (await asPaula("listVolumes", { query: { namespace: TEAM } }, 200)) as { items: Volume[] };
    const volume = page.items.find((item) => item.name === name);
    if (!volume?.sandbox?.deleted || volume.state === "attached") throw new Error(`${name} is still the workspace of a live sandbox`);
  }, { timeoutMs: 60_000, intervalMs: 250 });
  return { namespace: TEAM, name };
}

/** Templates this run made, for a real cluster to be left as it was found. */
const templatesMade = new Set<string>();
const templateSpec = (name: string) => {
  templatesMade.add(name);
  return { name, namespace: TEAM, sandbox: { workspace: { backend: "ephemeral" } }, warmPool: { replicas: 0 } };
};

async function aTemplate(): Promise<{ namespace: string; name: string }> {
  const { name } = templateSpec(unique("matrix-template"));
  await asPaula("createTemplate", { body: templateSpec(name) }, 201);
  return { namespace: TEAM, name };
}

/** Claims this run made: a real cluster keeps a claim's sandbox until the claim goes. */
const claimsMade = new Set<string>();
const claimBody = async (): Promise<{ name: string; template: string }> => {
  const name = unique("matrix-claim");
  claimsMade.add(name);
  return { name, template: (await shared.template()).name };
};

const keptClaimOnce = once(() => keptClaim());

/** Shared targets, made once, that no cell uses up. */
const shared = {
  sandbox: once(() => readySandbox()),
  claim: keptClaimOnce,
  snapshot: once(() => keptClaimSnapshot()),
  template: once(() => aTemplate()),
  /** The kept claim, with a helper pod to read it through (started by the admin). */
  readableClaim: once(async (): Promise<{ namespace: string; name: string }> => {
    const claim = await keptClaimOnce();
    await asPaula("startVolumeReader", { params: claim }, 200);
    return claim;
  }),
  sandboxClaim: once(async () => {
    const body = await claimBody();
    await asPaula("claimSandbox", { params: { namespace: TEAM }, body }, 202);
    return { namespace: TEAM, name: body.name };
  }),
};

/** A node that ran no sandbox, maintained before the first sandbox was made (so it stays cordoned and empty), and that run. */
let maintained: { node: string; run: string };

async function maintainAnEmptyNode(): Promise<{ node: string; run: string }> {
  const page = (await asPaula("listNodes", {}, 200)) as { items: { name: string; sandboxes: unknown[] }[] };
  const node = page.items.filter((one) => one.sandboxes.length === 0).at(-1)?.name;
  if (!node) throw new Error("every node runs a sandbox: the matrix needs one that runs none");
  const run = (await asPaula("startMaintenance", { params: { name: node }, body: {} }, 202)) as { id: string };
  await eventually(async () => {
    const state = ((await asPaula("getMaintenance", { params: { id: run.id } }, 200)) as { state: string }).state;
    if (state === "Running") throw new Error("still running");
  }, { timeoutMs: 60_000, intervalMs: 250 });
  return { node, run: run.id };
}

function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | null = null;
  return () => (made ??= make());
}

const sandboxId = async (allowed: boolean, make: () => Promise<SandboxRecord> = readySandbox) => ({ params: { id: (allowed ? await make() : await shared.sandbox()).id } });
const claimParams = async (allowed: boolean) => ({ params: allowed ? await keptClaim() : await shared.claim() });
/** A snapshot of the shared kept claim, ready to restore: on the embedded cluster (the real lane's classes have no snapshot driver, so there the name is of none). */
async function keptClaimSnapshot(): Promise<{ namespace: string; name: string; snapshot: string }> {
  const claim = await shared.claim();
  if (REAL_CLUSTER) return { ...claim, snapshot: unique("no-snapshot-here") };
  const { name: snapshot } = (await asPaula("takeVolumeSnapshot", { params: claim, body: { name: unique("matrix-snapshot") } }, 202)) as { name: string };
  await eventually(async () => {
    const { items } = (await asPaula("listVolumeSnapshots", { params: claim }, 200)) as { items: { name: string; readyToUse: boolean }[] };
    if (!items.find((one) => one.name === snapshot)?.readyToUse) throw new Error(`snapshot ${snapshot} is not ready yet`);
  }, { timeoutMs: 60_000, intervalMs: 250 });
  return { ...claim, snapshot };
}
const snapshotParams = async (allowed: boolean) => ({ params: allowed ? await keptClaimSnapshot() : await shared.snapshot() });

/** A file the claim holds, found by listing its root as the admin; a name where the listing cannot be had (the real lane's exec). */
async function aFileIn(claim: { namespace: string; name: string }): Promise<string> {
  if (REAL_CLUSTER) return "/anything";
  const { entries } = (await asPaula("listVolumeFiles", { params: claim, query: { path: "/" } }, 200)) as { entries: { path: string | null; kind: string }[] };
  const file = entries.find((entry) => entry.kind === "file" && entry.path)?.path;
  if (!file) throw new Error(`claim ${claim.name} holds no file at its root: ${JSON.stringify(entries)}`);
  return file;
}

/** The shared kept claim's volume, and the policy that would change it (so the allowed call really patches). */
async function keptVolumeSwitch(): Promise<ApiRequest> {
  const { name } = await shared.claim();
  const page = (await asPaula("listVolumes", { query: { namespace: TEAM } }, 200)) as { items: Volume[] };
  const volume = page.items.find((item) => item.name === name)?.persistentVolume;
  if (!volume) throw new Error(`claim ${name} has no volume yet`);
  return { params: { name: volume.name }, body: { reclaimPolicy: volume.reclaimPolicy === "Retain" ? "Delete" : "Retain" } };
}
const sizes = (() => {
  let gibibytes = 1;
  return () => `${++gibibytes}Gi`;
})();

const MATRIX: Record<EndpointId, Cell> = {
  health: { request: async () => ({}), answers: everyone(200) },
  readiness: { request: async () => ({}), answers: everyone(200) },
  liveness: { request: async () => ({}), answers: everyone(200) },
  openApi: { request: async () => ({}), answers: everyone(200) },
  whoAmI: { request: async () => ({}), answers: signedIn(200) },
  listSandboxes: { request: async () => ({}), answers: signedIn(200) },
  createSandbox: { request: async () => ({ body: sandboxSpec(unique("created")) }), answers: developsInTeam(201) },
  getSandbox: { request: () => sandboxId(false), answers: seesTeamSandboxes(200) },
  deleteSandbox: { request: (allowed) => sandboxId(allowed), answers: developsTeamSandboxes(200) },
  stopSandbox: { request: (allowed) => sandboxId(allowed), answers: developsTeamSandboxes(202) },
  startSandbox: { request: (allowed) => sandboxId(allowed, allowed ? stoppedSandbox : undefined), answers: developsTeamSandboxes(202) },
  recoverSandbox: {
    request: () => sandboxId(false),
    answers: developsTeamSandboxes(409),
    because: "a Ready sandbox has no failed pod to replace: the person was allowed, the sandbox's state refused",
  },
  execInSandbox: {
    request: async () => ({ ...(await sandboxId(false)), body: { command: ["sh", "-c", "echo hi"], timeoutSeconds: 10 } }),
    answers: developsTeamSandboxes(REAL_CLUSTER ? 502 : 200),
    ...(REAL_CLUSTER ? { because: "kwok's nodes run no containers: the API server allowed the exec, and no kubelet answered it" } : {}),
  },
  checkpointSandbox: { request: () => sandboxId(false), answers: developsTeamSandboxes(200) },
  listCheckpoints: { request: () => sandboxId(false), answers: seesTeamSandboxes(200) },
  sandboxTimeline: { request: () => sandboxId(false), answers: seesTeamSandboxes(200) },
  events: { request: async () => ({}), answers: signedIn(200) },
  listSecretNames: { request: async () => ({ params: { namespace: TEAM } }), answers: developsInTeam(200) },
  listVolumes: { request: async () => ({ query: { namespace: TEAM } }), answers: signedIn(200) },
  createVolume: { request: async () => ({ body: { namespace: TEAM, name: unique("made-claim"), size: "1Gi" } }), answers: developsInTeam(201) },
  deleteVolume: { request: claimParams, answers: developsInTeam(200) },
  expandVolume: { request: async () => ({ ...(await claimParams(false)), body: { size: sizes() } }), answers: developsInTeam(202) },
  changeReclaimPolicy: { request: keptVolumeSwitch, answers: platformAdmin(200) },
  deletePersistentVolume: {
    request: async () => ({ params: (await keptVolumeSwitch()).params }),
    answers: platformAdmin(409),
    because: "the kept claim's volume is Bound: the admin was allowed, and a Bound volume is its claim's to delete",
  },
  storageCleanUp: { request: async () => ({}), answers: signedIn(200) },
  listVolumeSnapshots: { request: async () => ({ params: await shared.claim() }), answers: seesTeam(200) },
  takeVolumeSnapshot: {
    request: async () => ({ params: await shared.claim(), body: { name: unique("taken") } }),
    answers: developsInTeam(REAL_CLUSTER ? 409 : 202),
    because: "the real control plane's classes have no snapshot driver: the person was allowed, the class refused",
  },
  restoreVolumeSnapshot: {
    request: async () => ({ params: await shared.snapshot(), body: { name: unique("restored") } }),
    answers: developsInTeam(REAL_CLUSTER ? 404 : 201),
    because: "the real control plane has no snapshot to restore: the person was allowed, the snapshot is not there",
  },
  cloneVolume: {
    request: async () => ({ params: await shared.claim(), body: { name: unique("cloned") } }),
    answers: developsInTeam(REAL_CLUSTER ? 400 : 201),
    because: "the real control plane has no CSI driver to clone with: the person was allowed, the class cannot fill a copy",
  },
  startVolumeReader: { request: async () => ({ params: await shared.claim() }), answers: developsInTeam(200) },
  listVolumeFiles: {
    request: async () => ({ params: await shared.readableClaim(), query: { path: "/" } }),
    answers: developsInTeam(REAL_CLUSTER ? 502 : 200),
    ...(REAL_CLUSTER ? { because: "kwok's nodes run no containers: the helper pod is Running on paper, and no kubelet answers the exec" } : {}),
  },
  readVolumeFile: {
    request: async () => ({ params: await shared.readableClaim(), query: { path: await aFileIn(await shared.readableClaim()) } }),
    answers: developsInTeam(REAL_CLUSTER ? 502 : 200),
    ...(REAL_CLUSTER ? { because: "kwok's nodes run no containers: the helper pod is Running on paper, and no kubelet answers the exec" } : {}),
  },
  listVolumeMoves: { request: async () => ({ params: await shared.claim() }), answers: seesTeam(200) },
  // Each allowed move copies a claim of its own: a claim being moved is refused a second move.
  moveVolume: { request: async (allowed) => ({ params: allowed ? await keptClaim() : await shared.claim(), body: { storageClassName: PORTABLE_CLASS } }), answers: developsInTeam(202) },
  deleteVolumeSnapshot: { request: snapshotParams, answers: developsInTeam(REAL_CLUSTER ? 404 : 200), because: "the real control plane has no snapshot to delete" },
  listTemplates: { request: async () => ({ query: { namespace: TEAM } }), answers: signedIn(200) },
  createTemplate: { request: async () => ({ body: templateSpec(unique("created-template")) }), answers: platformAdmin(201) },
  getTemplate: { request: async () => ({ params: await shared.template() }), answers: seesTeam(200) },
  updateTemplate: {
    request: async () => {
      const target = await shared.template();
      return { params: target, body: { ...templateSpec(target.name), warmPool: { replicas: 0, updateStrategy: "Recreate" } } };
    },
    answers: platformAdmin(200),
  },
  deleteTemplate: { request: async (allowed) => ({ params: allowed ? await aTemplate() : await shared.template() }), answers: platformAdmin(200) },
  claimSandbox: { request: async () => ({ params: { namespace: TEAM }, body: await claimBody() }), answers: developsInTeam(202) },
  getSandboxClaim: { request: async () => ({ params: await shared.sandboxClaim() }), answers: seesTeam(200) },
  listStorageClasses: { request: async () => ({}), answers: signedIn(200) },
  listNodes: { request: async () => ({}), answers: signedIn(200) },
  previewMaintenance: { request: async () => ({ params: { name: maintained.node } }), answers: platformAdmin(200) },
  startMaintenance: { request: async () => ({ params: { name: maintained.node }, body: {} }), answers: platformAdmin(202) },
  listNodeMaintenance: { request: async () => ({ params: { name: maintained.node } }), answers: platformAdmin(200) },
  getMaintenance: { request: async () => ({ params: { id: maintained.run } }), answers: platformAdmin(200) },
  cancelMaintenance: {
    request: async () => ({ params: { id: maintained.run } }),
    answers: platformAdmin(409),
    because: "the run has finished: the admin was allowed, there was nothing left to cancel",
  },
  getSettings: { request: async () => ({}), answers: signedIn(200) },
  changeSettings: { request: async () => ({ body: { workspaceDefaultStorageSize: "2Gi" } }), answers: platformAdmin(200) },
  settingsHistory: { request: async () => ({}), answers: signedIn(200) },
  audit: { request: async () => ({}), answers: platformAdmin(200) },
  simulatorState: {
    request: async () => ({}),
    answers: platformAdmin(REAL_CLUSTER ? 404 : 200),
    ...(REAL_CLUSTER ? { because: "a real cluster has no simulator" } : {}),
  },
  simulatorNodeAction: {
    request: async () => ({ params: { name: maintained.node, action: "cordon" } }),
    answers: platformAdmin(REAL_CLUSTER ? 404 : 200),
    ...(REAL_CLUSTER ? { because: "a real cluster has no simulator" } : {}),
  },
  simulatorPodAction: {
    request: async (allowed) => {
      const record = allowed && !REAL_CLUSTER ? await readySandbox() : await shared.sandbox();
      return { params: { namespace: record.namespace, name: record.podName ?? record.name, action: "delete" } };
    },
    answers: platformAdmin(REAL_CLUSTER ? 404 : 200),
    ...(REAL_CLUSTER ? { because: "a real cluster has no simulator" } : {}),
  },
  metrics: { request: async () => ({}), answers: platformAdmin(200) },
  signIn: { request: async () => ({}), answers: everyone(303), because: "with an authenticating proxy there is no provider: people are sent to the sign-in page" },
  signInCallback: { request: async () => ({}), answers: everyone(303), because: "with an authenticating proxy there is no provider to come back from: people are sent to the sign-in page" },
  exchangeCliCode: { request: async () => ({ body: { code: "forged", verifier: "v".repeat(43) } }), answers: everyone(400), because: "a code is only good with the verifier of the sign-in that made it, whoever sends it" },
  beginCliDeviceSignIn: { request: async () => ({}), answers: everyone(400), because: "with an authenticating proxy there is no provider to sign the command line in" },
  pollCliDeviceSignIn: { request: async () => ({ body: { deviceCode: "forged" } }), answers: everyone(400), because: "a device code is only good sealed by this Berth, whoever sends it" },
  signInWithToken: { request: async () => ({ body: { token: "not-a-token" } }), answers: everyone(400), because: "with an authenticating proxy, tokens are not how people sign in" },
  signOut: { request: async () => ({}), answers: everyone(303) },
};

beforeAll(async () => {
  api = await startApiUnderTest(REAL_CLUSTER ? { KUBECONFIG: REAL_CLUSTER } : { BERTH_SIM_CLOCK_SCALE: "20" });
  if (REAL_CLUSTER) {
    // As a platform team would on any cluster: the teams' namespaces, Berth's roles, the bindings.
    const label = api.runtime.config.namespaces.kind === "labelled" ? api.runtime.config.namespaces.label : null;
    await seedDemoTenants(connectToRealCluster("kubeconfig", OPERATOR_KUBECONFIG!), { managedLabel: label, groupsPrefix: "" });
  }
  await eventually(async () => {
    const health = await api.call("health", null);
    if (health.status !== 200 || !api.runtime.live.ready || !api.runtime.reconciler.maintenance()) throw new Error(`not serving yet: ${health.text}`);
  }, { timeoutMs: 60_000, intervalMs: 250 });
  maintained = await maintainAnEmptyNode();
}, 300_000);

afterAll(async () => {
  if (!api) return;
  // A real cluster outlives the run: leave it as it was found.
  for (const record of await api.runtime.store.sandboxes.listAllLive()) await api.call("deleteSandbox", person("paula"), { params: { id: record.id } });
  const admin = REAL_CLUSTER ? connectToRealCluster("kubeconfig", OPERATOR_KUBECONFIG!) : api.clusterAdmin();
  const claims = admin.kubeConfig.makeApiClient(CustomObjectsApi);
  for (const name of claimsMade) {
    await claims.deleteNamespacedCustomObject({ group: "extensions.agents.x-k8s.io", version: "v1beta1", namespace: TEAM, plural: "sandboxclaims", name }).catch(() => undefined);
  }
  for (const name of templatesMade) await api.call("deleteTemplate", person("paula"), { params: { namespace: TEAM, name } });
  // The helper pods that read the kept claim, or copy claims, would go at their expiry or end, by a sweep of a Berth that is stopping now.
  const helpers = `${api.runtime.config.gateway.labelPrefix}/helper in (volume-reader,volume-mover)`;
  await admin.kubeConfig.makeApiClient(CoreV1Api).deleteCollectionNamespacedPod({ namespace: TEAM, labelSelector: helpers, gracePeriodSeconds: 0 }).catch(() => undefined);
  // Berth cannot uncordon by itself; the admin can.
  if (maintained) await nodeResources(connectionFor(api.runtime.cluster.connection, { kind: "impersonate", person: person("paula") })).setUnschedulable(maintained.node, false);
  await api.stop();
}, 300_000);

/** The arguments of `kubectl auth can-i` that ask what an endpoint asks Kubernetes, about `someone`; null for an endpoint that asks nothing. */
function canIArguments(access: Access, someone: Person): string[] | null {
  const as = ["--as", someone.username, ...someone.groups.flatMap((group) => ["--as-group", group])];
  if (access.kind === "non-resource") return ["auth", "can-i", access.verb, access.path, ...as];
  if (access.kind !== "resource") return null;
  const where = access.namespace === "cluster" ? ["--all-namespaces"] : ["--namespace", TEAM];
  const subresource = access.subresource ? ["--subresource", access.subresource] : [];
  return ["auth", "can-i", access.verb, qualifiedResource(access), ...subresource, ...where, ...as];
}

/** Each distinct question with the answer the matrix implies (a person is let through when they get what paula gets), and the endpoints asking it. */
function canIQuestions() {
  const questions = new Map<string, { caller: Caller; args: string[]; expected: "yes" | "no"; endpoints: EndpointId[] }>();
  const disagreements: string[] = [];
  const paula = CALLERS.indexOf("paula");
  for (const id of ENDPOINT_IDS) {
    const answers = MATRIX[id].answers;
    for (const [index, caller] of CALLERS.entries()) {
      if (caller === "anonymous") continue;
      const args = canIArguments(ENDPOINTS[id].access, person(caller));
      if (!args) continue;
      const expected = answers[index] === answers[paula] ? "yes" : "no";
      const key = args.join(" ");
      const known = questions.get(key);
      if (known && known.expected !== expected) disagreements.push(`${id} says ${expected} and ${known.endpoints.join(", ")} say ${known.expected} to \`kubectl ${key}\``);
      if (known) known.endpoints.push(id);
      else questions.set(key, { caller, args, expected, endpoints: [id] });
    }
  }
  return { questions: [...questions.values()], disagreements };
}

const kubectl = await findKubectl();
if ("missing" in kubectl) console.warn(`kubectl auth can-i rows skipped: ${kubectl.missing}`);

describe.skipIf(!("kubectl" in kubectl))("kubectl auth can-i tells what Berth does", () => {
  const { questions, disagreements } = canIQuestions();
  const run = promisify(execFile);
  const discoveryCache = mkdtempSync(path.join(tmpdir(), "berth-kubectl-cache-"));
  afterAll(() => rmSync(discoveryCache, { recursive: true, force: true }));

  it("asks each question of Kubernetes with one answer, whichever endpoint asks it", () => {
    expect(disagreements).toEqual([]);
  });

  it.each(questions.map((question) => ({ ...question, command: question.args.slice(2, question.args.indexOf("--as")).join(" ") })))(
    "as $caller, `can-i $command` ($endpoints): $expected",
    async ({ args, expected }) => {
      const kubeconfig = REAL_CLUSTER ? OPERATOR_KUBECONFIG! : api.clusterAdminKubeconfig();
      // `no` exits 1. kubectl names berth.dev resources rightly only when discovery lists them, so
      // its discovery cache is this run's own: one left from an older cluster would not.
      const answer = await run((kubectl as { kubectl: string }).kubectl, args, { env: { ...process.env, KUBECONFIG: kubeconfig, KUBECACHEDIR: discoveryCache } }).then(
        ({ stdout }) => stdout.trim(),
        (error: { stdout?: string; stderr?: string }) => error.stdout?.trim() || `failed: ${error.stderr}`,
      );
      expect(answer).toBe(expected);
    },
  );
});

describe.each(ENDPOINT_IDS.map((id) => ({ id, endpoint: ENDPOINTS[id], cell: MATRIX[id] })))("$id ($endpoint.method $endpoint.path)", ({ id, cell }) => {
  it.each(CALLERS.map((caller, index) => ({ caller, status: cell.answers[index]! })))("as $caller: $status", async ({ caller, status }) => {
    const request = await cell.request(status < 400 || (status === 409 && caller !== "anonymous"));
    const answer = await api.call(id, identityOf(caller), request);
    expect(answer.status, answer.text).toBe(status);
  }, REAL_CLUSTER ? 240_000 : 60_000);
});
