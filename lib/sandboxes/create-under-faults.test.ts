import { anActor } from "../domain/test-fixtures.ts";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { gatewayDefaultsSchema } from "../domain/gateway-defaults.ts";
import { connectToEmbeddedCluster } from "../kube/cluster-connection.ts";
import { KubeApiError } from "../kube/kube-errors.ts";
import { sandboxResources } from "../kube/sandbox-resources.ts";
import { startSimulatedCluster, type SimCluster } from "../sim/index.ts";
import { eventually } from "../sim/testing/eventually.ts";
import type { Store } from "../store/index.ts";
import { openTestStore } from "../store/test-databases.ts";
import { createSandbox, type CreateSandboxDeps } from "./create-sandbox.ts";
import { LiveSandboxes } from "./live-sandboxes.ts";
import { OperationsInFlight } from "./operations-in-flight.ts";
import { StatusReconciler } from "./status-reconciler.ts";

// Creating sandboxes while the cluster misbehaves the way real ones do: slow, refusing, dropping
// watches, compacting history. Either a create fails and leaves nothing, or it converges to
// Ready with a timeline that tells the whole way there.

let sim: SimCluster;
let store: Store;
let deps: CreateSandboxDeps;
let reconciler: StatusReconciler;
let cleanupStore: () => Promise<void>;

beforeAll(async () => {
  sim = await startSimulatedCluster({ clockScale: 200 });
  const connection = connectToEmbeddedCluster(sim.serverUrl, sim.adminToken);
  ({ store, cleanup: cleanupStore } = await openTestStore());
  const inFlight = new OperationsInFlight();
  const live = new LiveSandboxes();
  deps = { store, resources: sandboxResources(connection, "v1beta1"), sandboxApiVersion: "v1beta1", defaults: gatewayDefaultsSchema.parse({}), inFlight, live };
  // A short resync, as a dropped watch may hide a change until the next one.
  reconciler = new StatusReconciler({ connection, store, sandboxApiVersion: "v1beta1", labelPrefix: "berth.dev", inFlight, live, resyncMs: 2_000, onError: () => {} });
  await reconciler.start();
});
afterEach(() => sim.faults.clearApiFaults());
afterAll(async () => {
  reconciler.stop();
  await sim.stop();
  await cleanupStore();
});

let counter = 0;
const uniqueName = () => `fault-${++counter}-${Date.now().toString(36)}`;

/** The timeline from Created to Ready, or an error saying where it stopped. */
async function wayToReady(id: string): Promise<string[]> {
  return eventually(async () => {
    const reasons = (await store.timeline.listForSandbox(id, { limit: 100 })).map((event) => event.reason);
    if (reasons[0] !== "Created" || reasons.at(-1) !== "Ready") throw new Error(`timeline so far: ${reasons.join(" → ")}`);
    return reasons;
  }, { timeoutMs: 30_000 });
}

async function nothingLeftOf(name: string) {
  const [sandbox, claims, record] = await Promise.all([
    deps.resources.readSandbox("default", name),
    deps.resources.listClaims("default", "berth.dev/managed-by=berth"),
    store.sandboxes.findLiveSandbox("default", name),
  ]);
  return { sandbox: sandbox?.metadata.name ?? null, claims: claims.filter((claim) => claim.metadata?.name?.endsWith(name)).map((claim) => claim.metadata?.name), record: record?.id ?? null };
}

const NOTHING = { sandbox: null, claims: [], record: null };

describe("a slow API server", () => {
  it("still brings creates to Ready, with the whole way on the timeline", async () => {
    sim.faults.injectApiFault({ latencyMs: 150 });
    const created = await Promise.all([1, 2, 3].map(() => createSandbox(deps, { name: uniqueName() }, anActor("alice"))));
    sim.faults.clearApiFaults();
    for (const { record } of created) await wayToReady(record.id);
  }, 120_000);
});

describe("an API server that refuses a step of the create", () => {
  it.each([
    { step: "the Sandbox", fault: { verb: "create", resource: "sandboxes", code: 500, message: "etcdserver: request timed out" } },
    { step: "the claim's owner reference", fault: { verb: "patch", resource: "persistentvolumeclaims", code: 503 } },
    { step: "the budget", fault: { verb: "create", resource: "poddisruptionbudgets", code: 429, message: "too many requests" } },
  ])("when it refuses $step, the create fails and leaves nothing behind", async ({ fault }) => {
    sim.faults.injectApiFault({ ...fault, count: 1 });
    const name = uniqueName();
    const spec = { name, workspace: { claim: { ownership: "delete" } }, disruptionPolicy: { evictionProtection: true } };
    await expect(createSandbox(deps, spec, anActor("alice"))).rejects.toBeInstanceOf(KubeApiError);
    // A claim the pod already mounted is held by its protection finalizer until the pod is gone.
    await eventually(async () => expect(await nothingLeftOf(name)).toEqual(NOTHING), { timeoutMs: 15_000 });
  });
});

describe("watches that keep dropping", () => {
  it("do not keep creates from Ready, nor lose a step of the timeline", async () => {
    const dropping = setInterval(() => sim.faults.dropWatches(), 100);
    try {
      const created = await Promise.all([1, 2, 3].map(() => createSandbox(deps, { name: uniqueName() }, anActor("alice"))));
      for (const { record } of created) await wayToReady(record.id);
    } finally {
      clearInterval(dropping);
    }
  });
});

describe("a compaction while sandboxes are created", () => {
  it("makes the watches list again (410 Gone) and the creates still reach Ready", async () => {
    const relistsBefore = reconciler.watchStats().pods.relistsAfterGone;
    // Hold the watches' reconnection back so that the history they resume from is compacted away.
    sim.faults.injectApiFault({ verb: "watch", latencyMs: 300 });
    sim.faults.dropWatches();
    const created = await Promise.all([1, 2].map(() => createSandbox(deps, { name: uniqueName() }, anActor("alice"))));
    sim.faults.compact();
    sim.faults.clearApiFaults();
    for (const { record } of created) await wayToReady(record.id);
    expect(reconciler.watchStats().pods.relistsAfterGone).toBeGreaterThan(relistsBefore);
  });
});

describe("a cluster whose list requests fail for a while", () => {
  it("has the watches retry with backoff, and the sandbox still reaches Ready", async () => {
    sim.faults.injectApiFault({ verb: "list", resource: "pods", code: 500, count: 3 });
    sim.faults.dropWatches();
    sim.faults.compact();
    const { record } = await createSandbox(deps, { name: uniqueName() }, anActor("alice"));
    await wayToReady(record.id);
  });
});
