import { randomUUID } from "node:crypto";
import { CoreV1Api, CustomObjectsApi, PolicyV1Api } from "@kubernetes/client-node";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ENDPOINT_IDS, ENDPOINTS, type Endpoint, type EndpointId } from "@/lib/domain/endpoints.ts";
import type { Person } from "@/lib/domain/person.ts";
import { SIMULATOR_NODE_ACTIONS, SIMULATOR_POD_ACTIONS, type SimulatorState } from "@/lib/domain/simulator.ts";
import { defaultWorkspaceClaimName } from "@/lib/domain/workspace.ts";
import { demoPersonIdentity } from "@/lib/identity/demo-people.ts";
import { startApiUnderTest, type ApiAnswer, type ApiRequest, type ApiUnderTest } from "./testing/api-under-test.ts";

// Property, for every endpoint of the table: whatever a signed-in person puts in its path, its
// query and its body — random JSON, a valid request with one field damaged, text no Kubernetes
// object can hold, shell syntax, values far over the limits, bodies nested too deep or larger
// than the cap — the answer is never a 5xx, a refusal of the input (400, 413) is problem+json
// naming each field it is about, and a refused request leaves nothing half-made in the cluster.
// Most callers are the platform admin, whom RBAC lets do everything, so that what refuses a
// request is the input and not the permission; the rest are a developer, for whom the same
// input meets RBAC's refusals first. FC_SEED=<n> replays a failing run, FC_RUNS=<n> runs more.

const SEED = Number(process.env.FC_SEED ?? 20261203);
const RUNS = Number(process.env.FC_RUNS ?? 40);
const MAX_BODY_BYTES = 64 * 1024;
const TEAM = "team-a";

const person = demoPersonIdentity;
const paula = person("paula");
/** A developer of team-a: most calls here are the admin's; some are refused by RBAC first. */
const alex = person("alex");

let api: ApiUnderTest;
let count = 0;
const uniqueName = (base: string) => `${base}-${Date.now().toString(36)}-${++count}`;
/** Every sandbox id a create answered 201 for: what the cluster may hold Berth objects of. */
const createdIds = new Set<string>();
const maintenanceRunIds: string[] = [];

/** The objects a valid path parameter names; made again when a call has used them up. */
interface Targets {
  sandboxId: string;
  claimName: string;
  /** The claim's PersistentVolume, once it is bound. */
  volumeName?: string;
  podName: string;
  nodeName: string;
  templateName: string;
  sandboxClaimName: string;
}
let targets: Targets;

const fixtureSpec = (name: string) => ({
  name,
  namespace: TEAM,
  profile: "generic",
  workspace: { backend: "pvc", claim: { ownership: "delete", size: "1Gi" } },
  env: [{ name: "MODE", value: "test" }],
});

const templateBody = (name: string) => ({
  name,
  namespace: TEAM,
  description: "property",
  sandbox: { workspace: { backend: "ephemeral" } },
  warmPool: { replicas: 0 },
});

/** A template for the template endpoints' paths, made again when a call deleted it. */
async function ensureTemplate(): Promise<string> {
  if (targets && (await api.call("getTemplate", paula, { params: { namespace: TEAM, name: targets.templateName } })).status === 200) return targets.templateName;
  const name = uniqueName("every-template");
  const created = await api.call("createTemplate", paula, { body: templateBody(name) });
  expect(created.status, created.text).toBe(201);
  return name;
}

/** A claim for the claim endpoint's path, made once (nothing here deletes it). */
async function ensureSandboxClaim(template: string): Promise<string> {
  if (targets) return targets.sandboxClaimName;
  const name = uniqueName("every-claim");
  const claimed = await api.call("claimSandbox", paula, { params: { namespace: TEAM }, body: { name, template } });
  expect(claimed.status, claimed.text).toBe(202);
  return name;
}

async function ensureTargets(): Promise<void> {
  const templateName = await ensureTemplate();
  const sandboxClaimName = await ensureSandboxClaim(templateName);
  if (targets) targets.templateName = templateName;
  const live = targets && api.runtime.live.get(targets.sandboxId);
  const state = (await api.call("simulatorState", paula)).json as SimulatorState;
  for (const node of state.nodes.filter((one) => !one.up || one.cordoned)) {
    await api.call("simulatorNodeAction", paula, { params: { name: node.name, action: node.up ? "uncordon" : "restore" } });
  }
  if (!live) {
    const name = uniqueName("every");
    const created = await api.call("createSandbox", paula, { body: fixtureSpec(name) });
    expect(created.status, created.text).toBe(201);
    const id = (created.json as { id: string }).id;
    createdIds.add(id);
    targets = { sandboxId: id, claimName: defaultWorkspaceClaimName(name), podName: name, nodeName: state.nodes[0]!.name, templateName, sandboxClaimName };
  }
  if (!targets.volumeName) {
    const claim = await api.clusterAdmin().kubeConfig.makeApiClient(CoreV1Api).readNamespacedPersistentVolumeClaim({ namespace: TEAM, name: targets.claimName }).catch(() => null);
    targets.volumeName = claim?.spec?.volumeName;
  }
}

beforeAll(async () => {
  api = await startApiUnderTest({
    BERTH_SIM_CLOCK_SCALE: "100",
    BERTH_MAX_BODY_BYTES: String(MAX_BODY_BYTES),
    // Every call counts against the rate limits; these runs are not what they are for.
    BERTH_CREATES_PER_MINUTE: "100000",
    BERTH_COMMANDS_PER_MINUTE: "100000",
    BERTH_WRITES_PER_MINUTE: "100000",
    BERTH_MAX_SANDBOXES_PER_NAMESPACE: "1000",
  });
  await api.untilLive();
}, 120_000);
afterAll(() => api?.stop(), 120_000);
beforeEach(ensureTargets, 60_000);

// ---- What a person may send ------------------------------------------------------------------

/** Text that has broken servers: control and unpaired characters, shell and SQL, paths, numbers that are not, sizes past every limit. */
const hostileText = fc.constantFrom(
  "", " ", "a\u0000b", "\ud800", "\udfff", "\u202eevil", "🙂", "%00", "%2e%2e%2f", "../../etc/passwd", "/proc/self/environ",
  "$(touch /tmp/pwned)", "`id`", "a;b|c&d", "'; DROP TABLE \"Sandbox\"; --", "<script>alert(1)</script>", "{{7*7}}",
  "-1", "0", "1e309", "NaN", "Infinity", "0x10", "99999999999999999999999999", "1Ei", "100000", "null", "true", "[]", "{}",
  "x".repeat(300), "x".repeat(40_000), "A-Upper", "a..b", "-leading", "trailing-", "team-a", "default", "kube-system",
);
const text = fc.oneof({ weight: 3, arbitrary: hostileText }, { weight: 1, arbitrary: fc.string({ maxLength: 30 }) }, { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 12 }) });

const deeplyNested = fc.integer({ min: 40, max: 2_000 }).map((depth) => `${"[".repeat(depth)}${"]".repeat(depth)}`);
const hostileJson = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  text,
  fc.integer(),
  fc.double(),
  fc.constantFrom(null, true, [], {}, -1, 0, 2 ** 53 + 1, 31 * 365 * 86_400, 1e308),
  fc.array(text, { maxLength: 3 }),
  fc.dictionary(text, text, { maxKeys: 3 }),
);

/** A valid request body for each endpoint that takes one: damaged one field at a time. */
const VALID_BODIES: Partial<Record<EndpointId, () => Record<string, unknown>>> = {
  createSandbox: () => fixtureSpec(uniqueName("prop")),
  execInSandbox: () => ({ command: ["sh", "-c", "echo ok"], timeoutSeconds: 5 }),
  expandVolume: () => ({ size: "2Gi" }),
  changeReclaimPolicy: () => ({ reclaimPolicy: "Retain" }),
  takeVolumeSnapshot: () => ({ name: uniqueName("prop-snapshot") }),
  restoreVolumeSnapshot: () => ({ name: uniqueName("prop-restored"), size: "1Gi" }),
  createVolume: () => ({ name: uniqueName("prop-claim"), size: "1Gi", storageClassName: "portable" }),
  createTemplate: () => templateBody(uniqueName("prop-template")),
  claimSandbox: () => ({ name: uniqueName("prop-claim"), template: targets.templateName }),
  updateTemplate: () => ({ ...templateBody(targets.templateName), warmPool: { replicas: 1, updateStrategy: "Recreate" } }),
  startMaintenance: () => ({ parallelism: 2, evictionTimeoutSeconds: 5, replacementTimeoutSeconds: 5 }),
  changeSettings: () => ({ workspaceDefaultStorageSize: "2Gi" }),
  simulatorNodeAction: () => ({ deleteEmptyDirData: true, timeoutSeconds: 5 }),
  signInWithToken: () => ({ token: "not-a-token" }),
};

/** A body as it goes on the wire: JSON text, or raw text that is not JSON at all. */
type WireBody = { json: unknown } | { raw: string };

function bodyFor(id: EndpointId): fc.Arbitrary<WireBody | undefined> {
  const endpoint: Endpoint = ENDPOINTS[id];
  if (!endpoint.body) return fc.oneof(fc.constant(undefined), hostileJson.map((json): WireBody => ({ json })));
  const valid = VALID_BODIES[id];
  const damagedField = valid
    ? fc.tuple(fc.constantFrom(...Object.keys(valid()), "unexpected"), fc.oneof(fc.constant(undefined), hostileJson)).map(([key, value]): WireBody => {
        const body = valid();
        if (value === undefined) delete body[key];
        else body[key] = value;
        return { json: body };
      })
    : fc.constant<WireBody | undefined>(undefined);
  return fc.oneof(
    { weight: 4, arbitrary: damagedField },
    { weight: 1, arbitrary: fc.constant(valid ? { json: valid() } : undefined) },
    { weight: 2, arbitrary: hostileJson.map((json): WireBody => ({ json })) },
    { weight: 1, arbitrary: deeplyNested.map((raw): WireBody => ({ raw })) },
    { weight: 1, arbitrary: fc.constantFrom<WireBody>({ raw: "{" }, { raw: "not json" }, { raw: `{"a":"${"x".repeat(MAX_BODY_BYTES)}"}` }, { raw: "\"\\ud800\"" }) },
  );
}

const VALID = Symbol("a valid value");
type ParamValue = string | typeof VALID;

/** What a valid path parameter of this endpoint is, now. */
function validParam(id: EndpointId, name: string): string {
  const path = ENDPOINTS[id].path;
  switch (name) {
    case "namespace":
      return TEAM;
    case "snapshot":
      // The target claim's class takes no snapshots here: a valid name of none (answered 404).
      return "no-such-snapshot";
    case "action":
      return path.includes("/pods/") ? SIMULATOR_POD_ACTIONS[count++ % SIMULATOR_POD_ACTIONS.length]! : SIMULATOR_NODE_ACTIONS[count++ % SIMULATOR_NODE_ACTIONS.length]!;
    case "id":
      return path.startsWith("/api/v1/maintenance/") ? (maintenanceRunIds.at(-1) ?? randomUUID()) : targets.sandboxId;
    case "name":
      if (path.startsWith("/api/v1/templates/")) return targets.templateName;
      if (path.startsWith("/api/v1/sandbox-claims/")) return targets.sandboxClaimName;
      if (path.startsWith("/api/v1/persistent-volumes/")) return targets.volumeName ?? "pvc-not-bound-yet";
      return path.startsWith("/api/v1/nodes/") || path.includes("/simulator/nodes/") ? targets.nodeName : path.includes("/pods/") ? targets.podName : targets.claimName;
    default:
      throw new Error(`no valid value is known for the path parameter ${name} of ${id}`);
  }
}

function paramsFor(endpoint: Endpoint): fc.Arbitrary<Record<string, ParamValue>> {
  const names = endpoint.params ? Object.keys(endpoint.params.shape) : [];
  return fc.record(Object.fromEntries(names.map((name) => [name, fc.oneof(fc.constant<ParamValue>(VALID), text)])));
}

function queryFor(endpoint: Endpoint): fc.Arbitrary<Record<string, string>> {
  const keys = [...(endpoint.query ? Object.keys(endpoint.query.shape) : []), "unexpected"];
  const value = fc.oneof(text, fc.constantFrom("1", "50", "500", "501", "true", "false", randomUUID(), "2026-12-01T00:00:00Z", "Succeeded"), fc.constant("q".repeat(3_000)));
  return fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: keys.length });
}

/** Header values are Latin-1 on the wire; what reaches Berth is printable text. */
const headerText = fc.oneof(fc.constantFrom("0", "-1", "abc", "1".repeat(30), "99999999999999999999", "12 34"), fc.string({ unit: fc.constantFrom(..."0123456789abc -;=".split("")), maxLength: 24 }));

interface Call {
  as: Person;
  params: Record<string, ParamValue>;
  query: Record<string, string>;
  body: WireBody | undefined;
  lastEventId: string | undefined;
}

function callFor(id: EndpointId): fc.Arbitrary<Call> {
  const endpoint: Endpoint = ENDPOINTS[id];
  return fc.record({
    as: fc.oneof({ weight: 4, arbitrary: fc.constant(paula) }, { weight: 1, arbitrary: fc.constant(alex) }),
    params: paramsFor(endpoint),
    query: queryFor(endpoint),
    // Browsers and fetch send no body with a GET.
    body: endpoint.method === "GET" ? fc.constant(undefined) : bodyFor(id),
    lastEventId: id === "events" ? fc.option(headerText, { nil: undefined }) : fc.constant(undefined),
  });
}

function requestOf(id: EndpointId, call: Call): ApiRequest {
  const params = Object.fromEntries(Object.entries(call.params).map(([name, value]) => [name, value === VALID ? validParam(id, name) : value]));
  const body = call.body === undefined ? undefined : "raw" in call.body ? call.body.raw : JSON.stringify(call.body.json) ?? "null";
  return { params, query: call.query, ...(body === undefined ? {} : { body }), ...(call.lastEventId === undefined ? {} : { headers: { "last-event-id": call.lastEventId } }) };
}

// ---- What every answer must be ---------------------------------------------------------------

function expectAnswerTellsWhatIsWrong(answer: ApiAnswer, sent: ApiRequest): void {
  const shown = `${answer.status} ${answer.text.slice(0, 400)}\nfor ${JSON.stringify(sent).slice(0, 400)}`;
  expect(answer.status, shown).toBeLessThan(500);
  if (answer.status < 400) return;
  expect(answer.headers.get("content-type"), shown).toBe("application/problem+json");
  if (answer.status !== 400 && answer.status !== 413) return;
  const errors = (answer.json as { errors?: { field?: string; message?: string }[] }).errors ?? [];
  expect(errors.length, shown).toBeGreaterThan(0);
  for (const error of errors) expect([error.field?.length, error.message?.length].every((length) => (length ?? 0) > 0), shown).toBe(true);
}

function remember(id: EndpointId, answer: ApiAnswer): void {
  if (id === "createSandbox" && answer.status === 201) createdIds.add((answer.json as { id: string }).id);
  if (id === "startMaintenance" && answer.status === 202) maintenanceRunIds.push((answer.json as { id: string }).id);
}

describe.each(ENDPOINT_IDS.map((id) => [`${ENDPOINTS[id].method} ${ENDPOINTS[id].path}`, id] as const))("%s, with hostile paths, queries and bodies", (_, id) => {
  it("never answers 5xx, and names the field of every refused input", async () => {
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(callFor(id), async (call) => {
        const sent = requestOf(id, call);
        const answer = await api.call(id, call.as, sent);
        remember(id, answer);
        statuses.add(answer.status);
        expectAnswerTellsWhatIsWrong(answer, sent);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    // Inputs are refused: a property that saw only successes (or nothing but 404s) says little.
    const endpoint: Endpoint = ENDPOINTS[id];
    const takesInput = endpoint.params || endpoint.query || endpoint.body;
    if (takesInput) expect([...statuses].some((status) => status === 400 || status === 413), `statuses seen: ${[...statuses].join(", ")}`).toBe(true);
  }, 180_000);
});

describe("after every endpoint took its share of hostile input", () => {
  it("the cluster holds no Sandbox, claim, Secret or budget of a create that was refused", async () => {
    const admin = api.clusterAdmin().kubeConfig;
    const selector = "berth.dev/managed-by=berth";
    const ids = (items: { metadata?: { labels?: Record<string, string> } }[]) => items.map((item) => item.metadata?.labels?.["berth.dev/sandbox-id"]).filter((id): id is string => id !== undefined);
    const core = admin.makeApiClient(CoreV1Api);
    const sandboxes = (await admin.makeApiClient(CustomObjectsApi).listClusterCustomObject({ group: "agents.x-k8s.io", version: "v1beta1", plural: "sandboxes", labelSelector: selector })) as { items: { metadata?: { labels?: Record<string, string> } }[] };
    const found = {
      sandboxes: ids(sandboxes.items),
      claims: ids((await core.listPersistentVolumeClaimForAllNamespaces({ labelSelector: selector })).items),
      secrets: ids((await core.listSecretForAllNamespaces({ labelSelector: selector })).items),
      budgets: ids((await admin.makeApiClient(PolicyV1Api).listPodDisruptionBudgetForAllNamespaces({ labelSelector: selector })).items),
    };
    const stray = Object.fromEntries(Object.entries(found).map(([kind, list]) => [kind, list.filter((id) => !createdIds.has(id))]));
    expect(stray).toEqual({ sandboxes: [], claims: [], secrets: [], budgets: [] });
  });

  it("the cluster holds no warm pool without its template", async () => {
    const custom = api.clusterAdmin().kubeConfig.makeApiClient(CustomObjectsApi);
    const names = async (plural: string) =>
      ((await custom.listClusterCustomObject({ group: "extensions.agents.x-k8s.io", version: "v1beta1", plural })) as { items: { metadata: { namespace: string; name: string } }[] }).items.map((item) => `${item.metadata.namespace}/${item.metadata.name}`);
    const templates = new Set(await names("sandboxtemplates"));
    expect((await names("sandboxwarmpools")).filter((pool) => !templates.has(pool))).toEqual([]);
  });
});
