import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "../clock.ts";
import { record, refs } from "../k8s-objects.ts";
import { ObjectStore } from "../store/object-store.ts";
import { advance, finishTermination, namespace, pod, settle, startLoops, stopLoops } from "./gc-test-support.ts";
import { NamespaceController } from "./namespace-controller.ts";
import type { ReconcileLoop } from "./reconciler.ts";

// The API layer holds a deleted namespace while spec.finalizers has "kubernetes". Until the
// store does that itself, a metadata finalizer stands in for the hold here.
const HOLD = "example.com/hold";
/** How long the controller's sweep of a namespace takes at the least. */
const SWEEP = 2_000;

let clock: ManualClock;
let store: ObjectStore;
let loops: ReconcileLoop[];

beforeEach(() => {
  clock = new ManualClock();
  store = new ObjectStore(clock);
  loops = [];
});
afterEach(() => stopLoops(loops));

function content(name: string): void {
  namespace(store, name);
  pod(store, "running", { namespace: name, node: "worker-1", ready: true });
  pod(store, "pending", { namespace: name });
  store.create(refs.budgets, { apiVersion: "policy/v1", kind: "PodDisruptionBudget", metadata: { name: "budget", namespace: name }, spec: { minAvailable: 1 } });
  store.create(refs.leases, { apiVersion: "coordination.k8s.io/v1", kind: "Lease", metadata: { name: "lease", namespace: name }, spec: {} });
}

function deleteHeld(name: string): void {
  const current = store.peek(refs.namespaces, undefined, name)!;
  store.update(refs.namespaces, { ...current, metadata: { ...current.metadata, finalizers: [HOLD] } });
  store.delete(refs.namespaces, undefined, name);
}

const conditionsOf = (name: string) => record(store.peek(refs.namespaces, undefined, name)?.status).conditions as { type: string; status: string; reason: string; message: string }[];

describe("the namespace controller", () => {
  it("marks a deleted namespace Terminating and deletes what is in it", async () => {
    content("team");
    loops = startLoops(store, clock, new NamespaceController(store, clock));
    deleteHeld("team");
    await settle(loops);

    const terminating = store.peek(refs.namespaces, undefined, "team");
    expect(record(terminating?.status).phase).toBe("Terminating");
    expect(store.peek(refs.pods, "team", "pending")).toBeUndefined();
    expect(store.peek(refs.budgets, "team", "budget")).toBeUndefined();
    expect(store.peek(refs.leases, "team", "lease")).toBeUndefined();
    expect(store.peek(refs.pods, "team", "running")?.metadata.deletionTimestamp).toBe("2026-01-01T00:00:30Z");
  });

  it("keeps the kubernetes finalizer and says what remains while a pod terminates", async () => {
    content("team");
    loops = startLoops(store, clock, new NamespaceController(store, clock));
    deleteHeld("team");
    await settle(loops);

    expect(record(store.peek(refs.namespaces, undefined, "team")?.spec).finalizers).toEqual(["kubernetes"]);
    expect(conditionsOf("team")).toContainEqual(
      expect.objectContaining({ type: "NamespaceContentRemaining", status: "True", reason: "SomeResourcesRemain", message: "Some resources are remaining: pods. has 1 resource instances" }),
    );
    expect(conditionsOf("team")).toContainEqual(
      expect.objectContaining({ type: "NamespaceDeletionDiscoveryFailure", status: "False", reason: "ResourcesDiscovered", message: "All resources successfully discovered" }),
    );
  });

  it("removes the kubernetes finalizer once the last pod is gone", async () => {
    content("team");
    loops = startLoops(store, clock, new NamespaceController(store, clock));
    deleteHeld("team");
    await settle(loops);

    finishTermination(store, "team", "running");
    await advance(clock, SWEEP, loops);

    const finalized = store.peek(refs.namespaces, undefined, "team");
    expect(record(finalized?.spec).finalizers).toEqual([]);
    expect(conditionsOf("team")).toContainEqual(expect.objectContaining({ type: "NamespaceContentRemaining", status: "False", reason: "ContentRemoved" }));
    // Only the stand-in hold is left; without it the namespace goes.
    store.update(refs.namespaces, { ...finalized!, metadata: { ...finalized!.metadata, finalizers: [] } });
    expect(store.peek(refs.namespaces, undefined, "team")).toBeUndefined();
  });

  it("reports content held by finalizers", async () => {
    namespace(store, "team");
    store.create(refs.leases, { apiVersion: "coordination.k8s.io/v1", kind: "Lease", metadata: { name: "held", namespace: "team", finalizers: ["example.com/keep"] }, spec: {} });
    loops = startLoops(store, clock, new NamespaceController(store, clock));
    deleteHeld("team");
    await settle(loops);

    expect(conditionsOf("team")).toContainEqual(
      expect.objectContaining({ type: "NamespaceFinalizersRemaining", status: "True", reason: "SomeFinalizerRemain", message: "Some finalizers are remaining: example.com/keep in 1 resource instances" }),
    );
    expect(record(store.peek(refs.namespaces, undefined, "team")?.spec).finalizers).toEqual(["kubernetes"]);
  });

  it("clears out the content of a namespace that was removed at once", async () => {
    content("team");
    loops = startLoops(store, clock, new NamespaceController(store, clock));
    await settle(loops);
    store.delete(refs.namespaces, undefined, "team");
    await settle(loops);

    expect(store.list(refs.leases, "team")).toEqual([]);
    expect(store.list(refs.budgets, "team")).toEqual([]);
    expect(store.list(refs.pods, "team").map((one) => one.metadata.name)).toEqual(["running"]);
  });

  it("with ordered deletion, deletes pods first and the rest once they are gone", async () => {
    content("team");
    loops = startLoops(store, clock, new NamespaceController(store, clock, { orderedDeletion: true }));
    deleteHeld("team");
    await settle(loops);
    expect(store.peek(refs.leases, "team", "lease")).toBeDefined();
    expect(store.peek(refs.pods, "team", "running")?.metadata.deletionTimestamp).toBeDefined();

    finishTermination(store, "team", "running");
    await advance(clock, SWEEP, loops);
    expect(store.peek(refs.leases, "team", "lease")).toBeUndefined();
    expect(record(store.peek(refs.namespaces, undefined, "team")?.spec).finalizers).toEqual([]);
  });

  it("keeps an empty namespace Terminating while it is swept, then removes it", async () => {
    namespace(store, "empty");
    loops = startLoops(store, clock, new NamespaceController(store, clock));
    store.delete(refs.namespaces, undefined, "empty");
    await settle(loops);
    const during = record(store.peek(refs.namespaces, undefined, "empty")?.status).phase;
    await advance(clock, SWEEP, loops);
    expect([during, store.peek(refs.namespaces, undefined, "empty")]).toEqual(["Terminating", undefined]);
  });

  it("leaves a namespace that is not being deleted alone", async () => {
    content("team");
    loops = startLoops(store, clock, new NamespaceController(store, clock));
    await settle(loops);
    store.delete(refs.pods, "team", "pending");
    await settle(loops);
    expect(store.peek(refs.leases, "team", "lease")).toBeDefined();
    expect(record(store.peek(refs.namespaces, undefined, "team")?.status).phase).toBe("Active");
  });
});
