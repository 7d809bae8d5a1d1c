import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "../clock.ts";
import { refs } from "../k8s-objects.ts";
import type { StoredObject } from "../objects.ts";
import { ObjectStore } from "../store/object-store.ts";
import { AgentSandboxController } from "./agent-sandbox-controller.ts";
import { ClaimProtectionController } from "./claim-protection.ts";
import { EventRecorder } from "./event-recorder.ts";
import { FOREGROUND_FINALIZER, GarbageCollector, ORPHAN_FINALIZER } from "./garbage-collector.ts";
import { finishTermination, pod, settle, startLoops, stopLoops } from "./gc-test-support.ts";
import type { ReconcileLoop } from "./reconciler.ts";

let clock: ManualClock;
let store: ObjectStore;
let collector: GarbageCollector;
let loops: ReconcileLoop[];

beforeEach(() => {
  clock = new ManualClock();
  store = new ObjectStore(clock);
  collector = new GarbageCollector(store, new EventRecorder(store, clock));
  loops = [];
});
afterEach(() => stopLoops(loops));

function sandbox(name: string, withClaim = false): StoredObject {
  return store.create(refs.sandboxes, {
    apiVersion: "agents.x-k8s.io/v1beta1",
    kind: "Sandbox",
    metadata: { name, namespace: "default" },
    spec: {
      operatingMode: "Running",
      podTemplate: { spec: { containers: [{ name: "agent", image: "busybox" }] } },
      ...(withClaim
        ? { volumeClaimTemplates: [{ metadata: { name: "workspace" }, spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } } }] }
        : {}),
    },
  });
}

function lease(name: string, owners: { owner: StoredObject; block?: boolean }[]): StoredObject {
  return store.create(refs.leases, {
    apiVersion: "coordination.k8s.io/v1",
    kind: "Lease",
    metadata: {
      name,
      namespace: "default",
      ownerReferences: owners.map(({ owner, block }) => ({
        apiVersion: owner.apiVersion,
        kind: owner.kind,
        name: owner.metadata.name,
        uid: owner.metadata.uid,
        ...(block === undefined ? {} : { blockOwnerDeletion: block }),
      })),
    },
    spec: {},
  });
}

const get = (ref: typeof refs.pods | typeof refs.leases | typeof refs.sandboxes | typeof refs.claims, name: string) => store.peek(ref, "default", name);

describe("the garbage collector", () => {
  it("deletes a Sandbox's pod and claims when the Sandbox is deleted in the background", async () => {
    // Claims carry kubernetes.io/pvc-protection: its controller lets them go once no pod uses them.
    loops = startLoops(store, clock, new AgentSandboxController(store, clock), new ClaimProtectionController(store), collector);
    sandbox("box", true);
    await settle(loops);
    expect(get(refs.pods, "box")).toBeDefined();
    expect(get(refs.claims, "workspace-box")).toBeDefined();

    store.delete(refs.sandboxes, "default", "box");
    await settle(loops);

    expect(get(refs.pods, "box")).toBeUndefined();
    expect(get(refs.claims, "workspace-box")).toBeUndefined();
  });

  it("deletes a scheduled pod with its grace period, leaving it Terminating", async () => {
    const owner = sandbox("box");
    pod(store, "box", { node: "worker-1", ready: true, owners: [owner], grace: 45 });
    loops = startLoops(store, clock, collector);
    await settle(loops);

    store.delete(refs.sandboxes, "default", "box");
    await settle(loops);

    const terminating = get(refs.pods, "box");
    expect(terminating?.metadata.deletionGracePeriodSeconds).toBe(45);
    expect(terminating?.metadata.deletionTimestamp).toBe("2026-01-01T00:00:45Z");
  });

  it("only removes the dangling reference from a dependent that still has another owner", async () => {
    const first = sandbox("first");
    const second = sandbox("second");
    lease("shared", [{ owner: first }, { owner: second }]);
    loops = startLoops(store, clock, collector);
    await settle(loops);

    store.delete(refs.sandboxes, "default", "first");
    await settle(loops);

    const shared = get(refs.leases, "shared");
    expect(shared).toBeDefined();
    expect(shared?.metadata.ownerReferences).toEqual([{ apiVersion: "agents.x-k8s.io/v1beta1", kind: "Sandbox", name: "second", uid: second.metadata.uid }]);
  });

  it("collects an object created with an owner that does not exist", async () => {
    loops = startLoops(store, clock, collector);
    await settle(loops);
    store.create(refs.leases, {
      apiVersion: "coordination.k8s.io/v1",
      kind: "Lease",
      metadata: { name: "orphaned", namespace: "default", ownerReferences: [{ apiVersion: "agents.x-k8s.io/v1beta1", kind: "Sandbox", name: "ghost", uid: "no-such-uid" }] },
      spec: {},
    });
    await settle(loops);
    expect(get(refs.leases, "orphaned")).toBeUndefined();
  });

  it("collects a dependent whose owner was replaced by a new object of the same name", async () => {
    const old = sandbox("box");
    lease("tied", [{ owner: old }]);
    store.delete(refs.sandboxes, "default", "box");
    sandbox("box");
    loops = startLoops(store, clock, collector);
    await settle(loops);
    expect(get(refs.leases, "tied")).toBeUndefined();
  });

  it("keeps an owner deleted in the foreground until its blocking dependent is gone", async () => {
    const owner = sandbox("box");
    pod(store, "box", { node: "worker-1", ready: true, owners: [owner] });
    loops = startLoops(store, clock, collector);
    await settle(loops);

    store.delete(refs.sandboxes, "default", "box", { addFinalizers: [FOREGROUND_FINALIZER] });
    await settle(loops);
    expect(get(refs.sandboxes, "box")?.metadata).toMatchObject({ finalizers: [FOREGROUND_FINALIZER], deletionTimestamp: "2026-01-01T00:00:00Z" });
    expect(get(refs.pods, "box")?.metadata.deletionTimestamp).toBe("2026-01-01T00:00:30Z");

    finishTermination(store, "default", "box");
    await settle(loops);
    expect(get(refs.pods, "box")).toBeUndefined();
    expect(get(refs.sandboxes, "box")).toBeUndefined();
  });

  it("does not wait in the foreground for a dependent that does not block its owner", async () => {
    const owner = sandbox("box");
    lease("loose", [{ owner, block: false }]);
    const blocking = lease("blocking", [{ owner, block: true }]);
    store.update(refs.leases, { ...blocking, metadata: { ...blocking.metadata, finalizers: ["example.com/hold"] } });
    loops = startLoops(store, clock, collector);
    await settle(loops);

    store.delete(refs.sandboxes, "default", "box", { addFinalizers: [FOREGROUND_FINALIZER] });
    await settle(loops);
    // Both dependents are deleted; only the one that blocks (held by its own finalizer) keeps the owner.
    expect(get(refs.leases, "loose")).toBeUndefined();
    expect(get(refs.leases, "blocking")?.metadata.deletionTimestamp).toBeDefined();
    expect(get(refs.sandboxes, "box")).toBeDefined();

    const held = get(refs.leases, "blocking")!;
    store.update(refs.leases, { ...held, metadata: { ...held.metadata, finalizers: [] } });
    await settle(loops);
    expect(get(refs.sandboxes, "box")).toBeUndefined();
  });

  it("lets a foreground owner go at once when it has no dependents", async () => {
    sandbox("alone");
    loops = startLoops(store, clock, collector);
    await settle(loops);
    store.delete(refs.sandboxes, "default", "alone", { addFinalizers: [FOREGROUND_FINALIZER] });
    await settle(loops);
    expect(get(refs.sandboxes, "alone")).toBeUndefined();
  });

  it("orphans dependents: they stay, without the reference to the deleted owner", async () => {
    const owner = sandbox("box");
    const other = sandbox("other");
    lease("mine", [{ owner }]);
    lease("shared", [{ owner }, { owner: other }]);
    loops = startLoops(store, clock, collector);
    await settle(loops);

    store.delete(refs.sandboxes, "default", "box", { addFinalizers: [ORPHAN_FINALIZER] });
    await settle(loops);

    expect(get(refs.sandboxes, "box")).toBeUndefined();
    expect(get(refs.leases, "mine")?.metadata.ownerReferences).toBeUndefined();
    expect(get(refs.leases, "shared")?.metadata.ownerReferences?.map((reference) => reference.name)).toEqual(["other"]);
  });

  it("never collects a cluster-scoped object that names a namespaced owner, and says so in an event", async () => {
    const owner = sandbox("box");
    store.create(refs.volumes, {
      apiVersion: "v1",
      kind: "PersistentVolume",
      metadata: { name: "pv-1", ownerReferences: [{ apiVersion: owner.apiVersion, kind: owner.kind, name: owner.metadata.name, uid: owner.metadata.uid }] },
      spec: { capacity: { storage: "1Gi" } },
    });
    loops = startLoops(store, clock, collector);
    await settle(loops);
    store.delete(refs.sandboxes, "default", "box");
    await settle(loops);

    expect(store.peek(refs.volumes, undefined, "pv-1")).toBeDefined();
    const event = store.list(refs.events).find((one) => one.reason === "OwnerRefInvalidNamespace");
    expect(event).toMatchObject({
      type: "Warning",
      message: `ownerRef [agents.x-k8s.io/v1beta1/Sandbox, namespace: , name: box, uid: ${owner.metadata.uid}] does not exist in namespace ""`,
      involvedObject: { kind: "PersistentVolume", name: "pv-1" },
    });
  });

  it("finds an owner's dependents through its index, not by scanning every object", async () => {
    const owners = Array.from({ length: 2_000 }, (_, index) => sandbox(`box-${index}`));
    for (const [index, owner] of owners.entries()) lease(`lease-${index}`, [{ owner }]);
    loops = startLoops(store, clock, collector);
    await settle(loops);

    const gone = store.peek(refs.sandboxes, "default", "box-7")!;
    const keys = collector.keysFor({ type: "DELETED", resource: "agents.x-k8s.io/sandboxes", revision: 0, object: gone, previous: gone });
    expect(keys).toEqual(["coordination.k8s.io/leases|default|lease-7"]);
  });
});
