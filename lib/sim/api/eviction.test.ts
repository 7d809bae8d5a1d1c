import { statusFailure } from "../testing/status-failure.ts";
import { ApiException, CoreV1Api } from "@kubernetes/client-node";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "../clock.ts";
import { accessForTests } from "../testing/access-for-tests.ts";
import { budgetStatus, DisruptionController } from "../controllers/disruption-controller.ts";
import { pod, settle, startLoops, stopLoops } from "../controllers/gc-test-support.ts";
import type { ReconcileLoop } from "../controllers/reconciler.ts";
import { findCondition, refs } from "../k8s-objects.ts";
import type { StoredObject } from "../objects.ts";
import { ObjectStore } from "../store/object-store.ts";
import { kubeConfigFor } from "../testing/kube-client.ts";
import { ApiServer } from "./api-server.ts";
import { bindPod } from "./binding.ts";
import { evictionBody, evictPod, type EvictionDeps } from "./eviction.ts";

let clock: ManualClock;
let store: ObjectStore;
let deps: EvictionDeps;
let loops: ReconcileLoop[];

beforeEach(() => {
  clock = new ManualClock();
  store = new ObjectStore(clock);
  deps = { store, clock };
  loops = startLoops(store, clock, new DisruptionController(store, clock));
});
afterEach(() => stopLoops(loops));

const agent = { app: "agent" };

function budget(name: string, spec: Record<string, unknown>): StoredObject {
  return store.create(refs.budgets, {
    apiVersion: "policy/v1",
    kind: "PodDisruptionBudget",
    metadata: { name, namespace: "default" },
    spec: { selector: { matchLabels: agent }, ...spec },
    status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0, observedGeneration: 0 },
  });
}

const evict = (name: string, deleteOptions?: Record<string, unknown>, dryRun = false) => evictPod(deps, "default", name, evictionBody("default", name, deleteOptions), dryRun);
const current = (name: string) => store.peek(refs.pods, "default", name);

describe("the Eviction API", () => {
  it("refuses with 429 when minAvailable 1 guards the only Ready pod", async () => {
    pod(store, "box", { labels: agent, node: "worker-1", ready: true });
    budget("singleton", { minAvailable: 1 });
    await settle(loops);

    const error = statusFailure(() => evict("box"));
    expect(error.status).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      reason: "TooManyRequests",
      details: { causes: [{ reason: "DisruptionBudget", message: "The disruption budget singleton needs 1 healthy pods and has 1 currently" }] },
      code: 429,
    });
    expect(current("box")?.metadata.deletionTimestamp).toBeUndefined();
    expect(findCondition(current("box")!, "DisruptionTarget")).toBeUndefined();
  });

  it("without a budget, marks the pod DisruptionTarget and deletes it with its grace period", () => {
    pod(store, "box", { labels: agent, node: "worker-1", ready: true, grace: 30 });

    expect(evict("box")).toEqual({ kind: "Status", apiVersion: "v1", metadata: {}, status: "Success", code: 201 });
    const evicted = current("box")!;
    expect(evicted.metadata).toMatchObject({ deletionTimestamp: "2026-01-01T00:00:30Z", deletionGracePeriodSeconds: 30 });
    expect(findCondition(evicted, "DisruptionTarget")).toEqual({
      type: "DisruptionTarget",
      status: "True",
      lastProbeTime: null,
      lastTransitionTime: "2026-01-01T00:00:00Z",
      reason: "EvictionByEvictionAPI",
      message: "Eviction API: evicting",
    });
  });

  it("takes one disruption from a budget that allows it, and records the pod", async () => {
    pod(store, "a", { labels: agent, node: "worker-1", ready: true });
    pod(store, "b", { labels: agent, node: "worker-1", ready: true });
    budget("pair", { minAvailable: 1 });
    await settle(loops);

    evict("a");
    const status = budgetStatus(store.peek(refs.budgets, "default", "pair")!);
    expect(status).toMatchObject({ disruptionsAllowed: 0, disruptedPods: { a: "2026-01-01T00:00:00Z" } });
    expect(status.conditions?.[0]).toMatchObject({ status: "False", reason: "InsufficientPods" });
    expect(current("a")?.metadata.deletionTimestamp).toBeDefined();

    await settle(loops);
    expect(statusFailure(() => evict("b")).code).toBe(429);
  });

  it("answers 429 while the budget's status lags its spec", () => {
    pod(store, "box", { labels: agent, node: "worker-1", ready: true });
    budget("fresh", { minAvailable: 0 });

    const error = statusFailure(() => evict("box"));
    expect(error.status).toMatchObject({
      code: 429,
      reason: "TooManyRequests",
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      details: { retryAfterSeconds: 10, causes: [{ reason: "DisruptionBudget", message: "The disruption budget fresh is still being processed by the server." }] },
    });
  });

  it("answers 500 when more than one budget selects the pod", async () => {
    pod(store, "box", { labels: agent, node: "worker-1", ready: true });
    budget("one", { minAvailable: 0 });
    budget("two", { minAvailable: 0 });
    await settle(loops);

    const error = statusFailure(() => evict("box"));
    expect(error.status).toMatchObject({ code: 500, status: "Failure", message: "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support." });
  });

  it("deletes a Pending pod without asking its budget", async () => {
    pod(store, "waiting", { labels: agent, node: "worker-1" });
    pod(store, "box", { labels: agent, node: "worker-1", ready: true });
    budget("singleton", { minAvailable: 1 });
    await settle(loops);

    evict("waiting");
    expect(current("waiting")?.metadata.deletionTimestamp).toBeDefined();
    expect(findCondition(current("waiting")!, "DisruptionTarget")?.reason).toBe("EvictionByEvictionAPI");
  });

  it("deletes an unready pod when the budget's healthy pods are enough, without taking a disruption", async () => {
    pod(store, "a", { labels: agent, node: "worker-1", ready: true });
    pod(store, "b", { labels: agent, node: "worker-1", ready: true });
    pod(store, "sick", { labels: agent, node: "worker-1", phase: "Running" });
    budget("pair", { minAvailable: 2 });
    await settle(loops);

    evict("sick");
    expect(current("sick")?.metadata.deletionTimestamp).toBeDefined();
    expect(budgetStatus(store.peek(refs.budgets, "default", "pair")!).disruptedPods).toBeUndefined();
  });

  it("changes nothing on a dry run, though it checks everything", async () => {
    pod(store, "a", { labels: agent, node: "worker-1", ready: true });
    pod(store, "b", { labels: agent, node: "worker-1", ready: true });
    budget("pair", { minAvailable: 1 });
    await settle(loops);
    const before = store.currentRevision();

    expect(evict("a", undefined, true)).toMatchObject({ status: "Success" });
    expect(evict("a", { dryRun: ["All"] })).toMatchObject({ status: "Success" });
    expect(store.currentRevision()).toBe(before);
  });

  it("honours the eviction's grace period and preconditions", () => {
    const created = pod(store, "box", { node: "worker-1", ready: true });
    expect(statusFailure(() => evict("box", { preconditions: { uid: "other" } })).status).toMatchObject({
      code: 409,
      reason: "Conflict",
      message: `Operation cannot be fulfilled on Pod "box": the UID in the precondition (other) does not match the UID in record (${created.metadata.uid}). The object might have been deleted and then recreated`,
    });

    evict("box", { gracePeriodSeconds: 5, preconditions: { uid: created.metadata.uid, resourceVersion: created.metadata.resourceVersion } });
    expect(current("box")?.metadata).toMatchObject({ deletionTimestamp: "2026-01-01T00:00:05Z", deletionGracePeriodSeconds: 5 });
  });

  it("rejects a malformed or misaddressed Eviction with 400, and an unknown pod with 404", () => {
    pod(store, "box", { node: "worker-1", ready: true });
    expect(statusFailure(() => evictPod(deps, "default", "box", "{not json", false)).code).toBe(400);
    expect(statusFailure(() => evictPod(deps, "default", "box", evictionBody("default", "other"), false)).status).toMatchObject({
      code: 400,
      reason: "BadRequest",
      message: "name in URL does not match name in Eviction object",
    });
    expect(statusFailure(() => evict("ghost")).status).toMatchObject({ code: 404, reason: "NotFound", message: 'pods "ghost" not found' });
  });
});

describe("the Eviction API over HTTP", () => {
  let server: ApiServer;
  let core: CoreV1Api;

  beforeEach(async () => {
    store.create(refs.namespaces, { apiVersion: "v1", kind: "Namespace", metadata: { name: "default" } });
    const { access, adminToken } = accessForTests(store, clock);
    server = new ApiServer({
      store,
      access,
      now: () => clock.now(),
      pods: {
        evict: (namespace, name, body, dryRun) => evictPod(deps, namespace, name, body, dryRun),
        bind: (namespace, name, body) => bindPod(deps, namespace, name, body),
        log: () => "",
        exec: (_request, socket) => socket.destroy(),
      },
    });
    core = kubeConfigFor(await server.listen(), adminToken).makeApiClient(CoreV1Api);
  });
  afterEach(() => server.close());

  it("answers client-node's eviction with 201, and a blocked one with 429", async () => {
    pod(store, "free", { node: "worker-1", ready: true });
    pod(store, "guarded", { labels: agent, node: "worker-1", ready: true });
    budget("singleton", { minAvailable: 1 });
    await settle(loops);

    await core.createNamespacedPodEviction({ name: "free", namespace: "default", body: { apiVersion: "policy/v1", kind: "Eviction", metadata: { name: "free", namespace: "default" } } });
    expect(current("free")?.metadata.deletionTimestamp).toBeDefined();

    const blocked = await core
      .createNamespacedPodEviction({ name: "guarded", namespace: "default", body: { apiVersion: "policy/v1", kind: "Eviction", metadata: { name: "guarded", namespace: "default" } } })
      .then(() => undefined, (error: unknown) => error);
    expect(blocked).toBeInstanceOf(ApiException);
    expect((blocked as ApiException<string>).code).toBe(429);
    expect(JSON.parse(String((blocked as ApiException<string>).body))).toMatchObject({ reason: "TooManyRequests", details: { causes: [{ reason: "DisruptionBudget" }] } });
  });
});
