import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "../clock.ts";
import { findCondition, record, refs } from "../k8s-objects.ts";
import type { KubeObject, StoredObject } from "../objects.ts";
import { ObjectStore } from "../store/object-store.ts";
import { budgetStatus, DisruptionController, expectedPodCount, scaledValue, type ScaleLookup } from "./disruption-controller.ts";
import { EventRecorder } from "./event-recorder.ts";
import { advance, pod, settle, startLoops, stopLoops } from "./gc-test-support.ts";
import type { ReconcileLoop } from "./reconciler.ts";

let clock: ManualClock;
let store: ObjectStore;
let loops: ReconcileLoop[];

beforeEach(() => {
  clock = new ManualClock();
  store = new ObjectStore(clock);
  loops = startLoops(store, clock, new DisruptionController(store, clock, new EventRecorder(store, clock)));
});
afterEach(() => stopLoops(loops));

function budget(name: string, spec: Record<string, unknown>): StoredObject {
  return store.create(refs.budgets, {
    apiVersion: "policy/v1",
    kind: "PodDisruptionBudget",
    metadata: { name, namespace: "default" },
    spec: { selector: { matchLabels: { app: "agent" } }, ...spec },
    // What the API server's strategy gives a new budget.
    status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0, observedGeneration: 0 },
  });
}

function sandbox(name: string, operatingMode = "Running"): StoredObject {
  return store.create(refs.sandboxes, {
    apiVersion: "agents.x-k8s.io/v1beta1",
    kind: "Sandbox",
    metadata: { name, namespace: "default" },
    spec: { operatingMode, podTemplate: { spec: { containers: [{ name: "agent", image: "busybox" }] } } },
  });
}

const statusOf = (name: string) => budgetStatus(store.peek(refs.budgets, "default", name)!);
const agent = { app: "agent" };

describe("the disruption controller", () => {
  it("allows no disruption for minAvailable 1 over one Ready pod", async () => {
    pod(store, "box", { labels: agent, node: "worker-1", ready: true });
    budget("singleton", { minAvailable: 1 });
    await settle(loops);

    const status = statusOf("singleton");
    expect(status).toMatchObject({ observedGeneration: 1, disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 });
    expect(status.conditions).toEqual([
      { type: "DisruptionAllowed", status: "False", observedGeneration: 1, lastTransitionTime: "2026-01-01T00:00:00Z", reason: "InsufficientPods", message: "" },
    ]);
  });

  it("allows one disruption for minAvailable 1 over two Ready pods", async () => {
    pod(store, "a", { labels: agent, node: "worker-1", ready: true });
    pod(store, "b", { labels: agent, node: "worker-2", ready: true });
    pod(store, "other", { labels: { app: "other" }, node: "worker-2", ready: true });
    budget("pair", { minAvailable: 1 });
    await settle(loops);

    expect(statusOf("pair")).toMatchObject({ disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1, expectedPods: 2 });
    expect(statusOf("pair").conditions?.[0]).toMatchObject({ status: "True", reason: "SufficientPods" });
  });

  it("recounts when a selected pod stops being Ready or starts terminating", async () => {
    pod(store, "a", { labels: agent, node: "worker-1", ready: true });
    pod(store, "b", { labels: agent, node: "worker-2", ready: true });
    budget("pair", { minAvailable: 1 });
    await settle(loops);

    const a = store.peek(refs.pods, "default", "a")!;
    store.update(refs.pods, { ...a, status: { ...record(a.status), conditions: [{ type: "Ready", status: "False" }] } });
    await settle(loops);
    expect(statusOf("pair")).toMatchObject({ disruptionsAllowed: 0, currentHealthy: 1 });

    store.delete(refs.pods, "default", "b", { gracePeriodSeconds: 30 });
    await settle(loops);
    expect(statusOf("pair")).toMatchObject({ disruptionsAllowed: 0, currentHealthy: 0, expectedPods: 2 });
  });

  it("counts the expected pods from the sandboxes that control them for maxUnavailable", async () => {
    for (const name of ["a", "b", "c"]) pod(store, name, { labels: agent, node: "worker-1", ready: true, owners: [sandbox(name)] });
    budget("spread", { maxUnavailable: 1 });
    await settle(loops);
    expect(statusOf("spread")).toMatchObject({ expectedPods: 3, desiredHealthy: 2, currentHealthy: 3, disruptionsAllowed: 1 });
  });

  it("rounds a percentage minAvailable up", async () => {
    for (const name of ["a", "b", "c"]) pod(store, name, { labels: agent, node: "worker-1", ready: true, owners: [sandbox(name)] });
    budget("half", { minAvailable: "50%" });
    await settle(loops);
    expect(statusOf("half")).toMatchObject({ expectedPods: 3, desiredHealthy: 2, disruptionsAllowed: 1 });
  });

  it("expects no pods, and allows nothing, when maxUnavailable selects unmanaged pods", async () => {
    pod(store, "bare", { labels: agent, node: "worker-1", ready: true });
    const pdb = budget("unmanaged", { maxUnavailable: 1 });
    await settle(loops);
    expect(statusOf("unmanaged")).toMatchObject({ expectedPods: 0, currentHealthy: 1, disruptionsAllowed: 0 });
    const event = store.list(refs.events).find((one) => one.reason === "UnmanagedPods");
    expect(event).toMatchObject({ type: "Warning", involvedObject: { uid: pdb.metadata.uid } });
    expect(String(event?.message)).toContain("(selector: &LabelSelector{MatchLabels:map[string]string{app: agent,},MatchExpressions:[]LabelSelectorRequirement{},}) were found to be unmanaged");
  });

  it("reports an event when no pod matches", async () => {
    budget("empty", { minAvailable: 1 });
    await settle(loops);
    expect(store.list(refs.events).find((one) => one.reason === "NoPods")).toMatchObject({ type: "Normal", message: "No matching pods found" });
    expect(statusOf("empty")).toMatchObject({ observedGeneration: 1, expectedPods: 0, disruptionsAllowed: 0 });
  });

  it("follows the budget's generation when its spec changes", async () => {
    pod(store, "a", { labels: agent, node: "worker-1", ready: true });
    pod(store, "b", { labels: agent, node: "worker-1", ready: true });
    budget("pair", { minAvailable: 2 });
    await settle(loops);
    expect(statusOf("pair")).toMatchObject({ observedGeneration: 1, disruptionsAllowed: 0 });

    const current = store.peek(refs.budgets, "default", "pair")!;
    store.update(refs.budgets, { ...current, spec: { ...record(current.spec), minAvailable: 1 } });
    await settle(loops);
    expect(statusOf("pair")).toMatchObject({ observedGeneration: 2, disruptionsAllowed: 1 });
  });

  it("fails safe on a selector it cannot parse", async () => {
    pod(store, "a", { labels: agent, node: "worker-1", ready: true });
    budget("broken", { selector: { matchExpressions: [{ key: "app", operator: "Near", values: ["x"] }] }, minAvailable: 0 });
    await settle(loops);
    expect(statusOf("broken").conditions?.[0]).toMatchObject({ type: "DisruptionAllowed", status: "False", reason: "SyncFailed", message: '"Near" is not a valid label selector operator' });
    expect(statusOf("broken").disruptionsAllowed).toBe(0);
  });

  it("does not count a pod an eviction recorded until its entry expires two minutes later", async () => {
    pod(store, "a", { labels: agent, node: "worker-1", ready: true });
    pod(store, "b", { labels: agent, node: "worker-1", ready: true });
    budget("pair", { minAvailable: 1 });
    await settle(loops);

    const pdb = store.peek(refs.budgets, "default", "pair")!;
    store.update(refs.budgets, { ...pdb, status: { ...record(pdb.status), disruptionsAllowed: 0, disruptedPods: { a: "2026-01-01T00:00:00Z" } } });
    await settle(loops);
    expect(statusOf("pair")).toMatchObject({ currentHealthy: 1, disruptionsAllowed: 0, disruptedPods: { a: "2026-01-01T00:00:00Z" } });

    await advance(clock, 120_001, loops);
    expect(statusOf("pair")).toMatchObject({ currentHealthy: 2, disruptionsAllowed: 1 });
    expect(statusOf("pair").disruptedPods).toBeUndefined();
    expect(store.list(refs.events).find((one) => one.reason === "NotDeleted")).toMatchObject({
      type: "Warning",
      message: "Pod was expected by PDB default/default to be deleted but it wasn't",
      involvedObject: { kind: "Pod", name: "a" },
    });
  });

  it("resets a DisruptionTarget condition left two minutes on a pod nobody deleted", async () => {
    const created = pod(store, "a", { labels: agent, node: "worker-1", ready: true });
    const conditions = [
      ...(record(created.status).conditions as KubeObject[]),
      { type: "DisruptionTarget", status: "True", lastProbeTime: null, lastTransitionTime: "2026-01-01T00:00:00Z", reason: "EvictionByEvictionAPI", message: "Eviction API: evicting" },
    ];
    store.update(refs.pods, { ...created, status: { ...record(created.status), conditions } });
    await settle(loops);
    expect(findCondition(store.peek(refs.pods, "default", "a")!, "DisruptionTarget")?.status).toBe("True");

    await advance(clock, 120_000, loops);
    expect(findCondition(store.peek(refs.pods, "default", "a")!, "DisruptionTarget")).toEqual({
      type: "DisruptionTarget",
      status: "False",
      lastProbeTime: null,
      lastTransitionTime: "2026-01-01T00:02:00Z",
    });
  });
});

describe("the budget derivations", () => {
  it.each([
    [1, 10, 1],
    ["50%", 3, 2],
    ["10%", 5, 1],
    ["0%", 5, 0],
    ["100%", 7, 7],
  ] as const)("scales %s of %i to %i, rounding up", (value, total, expected) => {
    expect(scaledValue(value, total)).toBe(expected);
  });

  it.each([
    ["3", "invalid value for IntOrString: invalid type: string is not a percentage"],
    ["x%", 'invalid value for IntOrString: invalid value "x%": strconv.Atoi: parsing "x": invalid syntax'],
  ])("refuses %s with the real message", (value, message) => {
    expect(() => scaledValue(value, 3)).toThrow(message);
  });

  it("reports a pod whose controller cannot be found", () => {
    const lonely = { metadata: { name: "p", ownerReferences: [{ apiVersion: "apps/v1", kind: "ReplicaSet", name: "rs", uid: "u", controller: true }] } } as StoredObject;
    const scaleOf: ScaleLookup = () => ({ error: 'no matches for kind "ReplicaSet" in version "apps/v1"' });
    expect(() => expectedPodCount({ metadata: {}, spec: { maxUnavailable: 1 } }, [lonely], scaleOf)).toThrow('no matches for kind "ReplicaSet" in version "apps/v1"');
    expect(expectedPodCount({ metadata: {}, spec: { minAvailable: 2 } }, [lonely], scaleOf)).toEqual({ expectedCount: 1, desiredHealthy: 2, unmanagedPods: [] });
  });
});
