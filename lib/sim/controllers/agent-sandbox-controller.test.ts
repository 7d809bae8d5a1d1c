import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "../clock.ts";
import { list, record, refs } from "../k8s-objects.ts";
import type { KubeObject, StoredObject } from "../objects.ts";
import { ObjectStore } from "../store/object-store.ts";
import { AgentSandboxController, PROPAGATED_LABELS_ANNOTATION, SANDBOX_NAME_HASH_LABEL } from "./agent-sandbox-controller.ts";
import { POD_NAME_ANNOTATION } from "./sandbox-extensions.ts";
import { ReconcileLoop } from "./reconciler.ts";
import { current, edit, settle } from "./test-support.ts";

// What sigs.k8s.io/agent-sandbox v0.5.6 (controllers/sandbox_controller.go) writes, state by
// state: the strings are the controller's own. The pods' phases are set by hand here (no
// kubelet), as a kubelet would report them.

let clock: ManualClock;
let store: ObjectStore;
let loop: ReconcileLoop;
let failures: string[];

beforeEach(() => {
  clock = new ManualClock();
  store = new ObjectStore(clock);
  failures = [];
  loop = new ReconcileLoop(new AgentSandboxController(store, clock), store, clock, (_name, key, error) => failures.push(`${key}: ${(error as Error).message}`));
  loop.start();
});
afterEach(() => loop.stop());

const run = (ms = 0) => settle([loop], clock, ms);

interface SandboxOptions {
  operatingMode?: "Running" | "Suspended";
  labels?: Record<string, string>;
  templateLabels?: Record<string, string>;
  templateAnnotations?: Record<string, string>;
  service?: boolean;
  shutdownTime?: string;
  shutdownPolicy?: "Delete" | "Retain";
  claims?: boolean;
}

function createSandbox(name: string, options: SandboxOptions = {}): StoredObject {
  const templateMetadata = {
    ...(options.templateLabels ? { labels: options.templateLabels } : {}),
    ...(options.templateAnnotations ? { annotations: options.templateAnnotations } : {}),
  };
  return store.create(refs.sandboxes, {
    apiVersion: "agents.x-k8s.io/v1beta1",
    kind: "Sandbox",
    metadata: { name, namespace: "default", ...(options.labels ? { labels: options.labels } : {}) },
    spec: {
      operatingMode: options.operatingMode ?? "Running",
      podTemplate: { ...(Object.keys(templateMetadata).length ? { metadata: templateMetadata } : {}), spec: { containers: [{ name: "agent", image: "busybox" }] } },
      ...(options.claims === false ? {} : { volumeClaimTemplates: [{ metadata: { name: "workspace" }, spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } } }] }),
      ...(options.service === undefined ? {} : { service: options.service }),
      ...(options.shutdownTime ? { shutdownTime: options.shutdownTime } : {}),
      shutdownPolicy: options.shutdownPolicy ?? "Retain",
    },
  });
}

const sandbox = (name: string) => current(store, refs.sandboxes, name, "default");
const pod = (name: string) => store.peek(refs.pods, "default", name);
const sandboxStatus = (name: string) => record(sandbox(name).status);
const conditionOf = (name: string, type: string) => conditionsOf(name).find((condition) => condition.type === type);
const conditionsOf = (name: string) => list<{ type: string; status: string; reason: string; message: string; observedGeneration?: number }>(sandboxStatus(name).conditions)
  .map(({ type, status, reason, message, observedGeneration }) => ({ type, status, reason, message, observedGeneration }));

function setMode(name: string, operatingMode: "Running" | "Suspended"): void {
  edit(store, refs.sandboxes, sandbox(name), (draft) => {
    (draft.spec as Record<string, unknown>).operatingMode = operatingMode;
  });
}

/** The scheduler's part: the pod gets a node. */
function bind(name: string, nodeName = "worker-1"): void {
  edit(store, refs.pods, pod(name)!, (draft) => {
    (draft.spec as Record<string, unknown>).nodeName = nodeName;
    draft.status = { ...record(draft.status), conditions: [{ type: "PodScheduled", status: "True", lastTransitionTime: "2026-01-01T00:00:00Z" }] };
  });
}

/** The kubelet's part: a phase, Ready or not, and the pod's IPs. */
function report(name: string, phase: string, ready: boolean, ips: string[] = []): void {
  edit(store, refs.pods, pod(name)!, (draft) => {
    draft.status = {
      ...record(draft.status),
      phase,
      conditions: [{ type: "PodScheduled", status: "True" }, { type: "Ready", status: ready ? "True" : "False" }],
      ...(ips.length ? { podIP: ips[0], podIPs: ips.map((ip) => ({ ip })) } : {}),
    };
  });
}

/** The kubelet's part at the end of a graceful deletion: the pod goes. */
function terminated(name: string): void {
  expect(pod(name)?.metadata.deletionTimestamp).toBeDefined();
  store.delete(refs.pods, "default", name, { gracePeriodSeconds: 0 });
}

async function runningSandbox(name: string, options: SandboxOptions = {}): Promise<void> {
  createSandbox(name, options);
  await run();
  bind(name);
  report(name, "Running", true, ["10.244.1.2"]);
  await run();
}

function foreignObject(kind: "Pod" | "PersistentVolumeClaim", name: string, metadata: Partial<KubeObject["metadata"]> = {}): void {
  const ref = kind === "Pod" ? refs.pods : refs.claims;
  store.create(ref, {
    apiVersion: "v1",
    kind,
    metadata: { name, namespace: "default", ...metadata },
    spec: kind === "Pod" ? { containers: [{ name: "main", image: "busybox" }] } : { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
    status: { phase: "Pending" },
  });
}

describe("the agent-sandbox controller", () => {
  it("writes a running Sandbox's status as v0.5.6 does: Suspended=False, PodScheduled from the pod, Ready, with observedGeneration, and no Service", async () => {
    await runningSandbox("box");
    const at = { observedGeneration: 1, lastTransitionTime: "2026-01-01T00:00:00Z" };
    expect(sandbox("box").status).toEqual({
      conditions: [
        { type: "Suspended", status: "False", reason: "NotSuspended", message: "Sandbox is not suspended", ...at },
        { type: "PodScheduled", status: "True", reason: "PodScheduled", message: "", ...at },
        { type: "Ready", status: "True", reason: "DependenciesReady", message: "Pod is Ready", ...at },
      ],
      selector: `${SANDBOX_NAME_HASH_LABEL}=${record(pod("box")!.metadata.labels)[SANDBOX_NAME_HASH_LABEL]}`,
      podIPs: ["10.244.1.2"],
      nodeName: "worker-1",
    });
    expect(sandbox("box").metadata.annotations).toEqual({ [POD_NAME_ANNOTATION]: "box" });
    expect(failures).toEqual([]);
  });

  it("gives the pod the template's labels, minus the reserved ones, and names them in agents.x-k8s.io/propagated-labels", async () => {
    createSandbox("labelled", {
      templateLabels: { "berth.dev/sandbox-id": "id-1", "berth.dev/managed-by": "berth", "agents.x-k8s.io/sandbox-name-hash": "forged" },
      templateAnnotations: { "agents.x-k8s.io/pod-name": "forged", "opentelemetry.io/trace-context": "x" },
      labels: { "agents.x-k8s.io/created-by": "berth" },
    });
    await run();
    const created = pod("labelled")!;
    expect(created.metadata.labels).toEqual({
      "berth.dev/sandbox-id": "id-1",
      "berth.dev/managed-by": "berth",
      [SANDBOX_NAME_HASH_LABEL]: "c3bc4082",
      "agents.x-k8s.io/created-by": "unknown",
    });
    expect(created.metadata.annotations).toEqual({ [PROPAGATED_LABELS_ANNOTATION]: "berth.dev/managed-by,berth.dev/sandbox-id" });
    expect(created.metadata.ownerReferences).toEqual([
      { apiVersion: "agents.x-k8s.io/v1beta1", kind: "Sandbox", name: "labelled", uid: sandbox("labelled").metadata.uid, controller: true, blockOwnerDeletion: true },
    ]);
  });

  it("makes an existing pod's labels follow the template: a removed label goes, a new one comes", async () => {
    createSandbox("relabel", { templateLabels: { keep: "1", drop: "1" } });
    await run();
    edit(store, refs.sandboxes, sandbox("relabel"), (draft) => {
      record(record(draft.spec).podTemplate).metadata = { labels: { keep: "2", add: "1" } };
    });
    await run();
    expect(pod("relabel")!.metadata.labels).toEqual({ keep: "2", add: "1", [SANDBOX_NAME_HASH_LABEL]: expect.any(String) });
    expect(pod("relabel")!.metadata.annotations).toEqual({ [PROPAGATED_LABELS_ANNOTATION]: "add,keep" });
  });

  it("names the claims <template>-<sandbox> with the template's labels and the name hash, owned by the Sandbox", async () => {
    createSandbox("claimed");
    await run();
    const claim = current(store, refs.claims, "workspace-claimed", "default");
    expect([claim.metadata.labels, claim.metadata.annotations, claim.metadata.ownerReferences?.[0]?.controller]).toEqual([{ [SANDBOX_NAME_HASH_LABEL]: expect.any(String) }, undefined, true]);
    expect((pod("claimed")!.spec as { volumes: unknown[] }).volumes).toEqual([{ name: "workspace", persistentVolumeClaim: { claimName: "workspace-claimed" } }]);
  });

  it("says the pod's phase while it is Pending, and that it has not reported scheduling yet", async () => {
    createSandbox("pending");
    await run();
    expect([conditionOf("pending", "Ready"), conditionOf("pending", "PodScheduled")]).toEqual([
      { type: "Ready", status: "False", reason: "DependenciesNotReady", message: "Pod exists with phase: Pending", observedGeneration: 1 },
      { type: "PodScheduled", status: "Unknown", reason: "PodSchedulingUnknown", message: "Pod has not reported a PodScheduled condition yet", observedGeneration: 1 },
    ]);
  });

  it("mirrors the pod's scheduling failure, in the scheduler's words", async () => {
    createSandbox("stuck");
    await run();
    edit(store, refs.pods, pod("stuck")!, (draft) => {
      draft.status = { ...record(draft.status), conditions: [{ type: "PodScheduled", status: "False", reason: "Unschedulable", message: "0/3 nodes are available: 3 Insufficient cpu." }] };
    });
    await run();
    expect(conditionOf("stuck", "PodScheduled")).toMatchObject({ status: "False", reason: "Unschedulable", message: "0/3 nodes are available: 3 Insufficient cpu." });
  });

  it("does not write the node name alone while the Sandbox is not Ready", async () => {
    createSandbox("pending");
    await run();
    const before = sandbox("pending").metadata.resourceVersion;
    edit(store, refs.pods, pod("pending")!, (draft) => {
      (draft.spec as Record<string, unknown>).nodeName = "worker-1";
    });
    await run();
    expect([sandbox("pending").metadata.resourceVersion, sandboxStatus("pending").nodeName]).toEqual([before, undefined]);
    expect(sandboxStatus("pending").selector).toBe(`${SANDBOX_NAME_HASH_LABEL}=${record(pod("pending")!.metadata.labels)[SANDBOX_NAME_HASH_LABEL]}`);
  });

  it("tells Running-but-not-Ready and Ready-without-IPs apart", async () => {
    createSandbox("starting");
    await run();
    bind("starting");
    report("starting", "Running", false);
    await run();
    expect(conditionOf("starting", "Ready")).toMatchObject({ status: "False", reason: "DependenciesNotReady", message: "Pod is Running but not Ready" });
    expect(sandboxStatus("starting").nodeName).toBe("worker-1");
    report("starting", "Running", true);
    await run();
    expect(conditionOf("starting", "Ready")).toMatchObject({ status: "False", reason: "DependenciesNotReady", message: "Pod is Ready but has no podIPs yet" });
  });

  it("keeps a pod that is being deleted as its pod, Ready and with its IPs, until it is gone", async () => {
    await runningSandbox("leaving");
    store.delete(refs.pods, "default", "leaving", { gracePeriodSeconds: 30 });
    await run();
    expect([conditionOf("leaving", "Ready")?.status, sandboxStatus("leaving").podIPs]).toEqual(["True", ["10.244.1.2"]]);
  });

  it("puts a new Pending pod in place of a deleted one in the same reconcile", async () => {
    await runningSandbox("replaced");
    const first = pod("replaced")!.metadata.uid;
    store.delete(refs.pods, "default", "replaced", {});
    await run();
    expect(pod("replaced")!.metadata.uid).not.toBe(first);
    expect(conditionOf("replaced", "Ready")).toEqual({ type: "Ready", status: "False", reason: "DependenciesNotReady", message: "Pod exists with phase: Pending", observedGeneration: 1 });
    expect([sandboxStatus("replaced").podIPs, sandboxStatus("replaced").nodeName, sandbox("replaced").metadata.annotations]).toEqual([undefined, undefined, { [POD_NAME_ANNOTATION]: "replaced" }]);
  });

  it("reports a Failed pod with Finished=True and leaves it there", async () => {
    await runningSandbox("failed");
    const uid = pod("failed")!.metadata.uid;
    report("failed", "Failed", false);
    await run();
    expect([conditionOf("failed", "Ready"), conditionOf("failed", "Finished")]).toEqual([
      { type: "Ready", status: "False", reason: "PodFailed", message: "Pod failed", observedGeneration: 1 },
      { type: "Finished", status: "True", reason: "PodFailed", message: "Pod failed", observedGeneration: 1 },
    ]);
    expect(pod("failed")!.metadata.uid).toBe(uid);
  });

  it("reports a Succeeded pod as completed, and drops Finished once a new pod runs", async () => {
    await runningSandbox("done");
    report("done", "Succeeded", false);
    await run();
    expect([conditionOf("done", "Ready"), conditionOf("done", "Finished")]).toEqual([
      { type: "Ready", status: "False", reason: "PodSucceeded", message: "Pod completed successfully", observedGeneration: 1 },
      { type: "Finished", status: "True", reason: "PodSucceeded", message: "Pod completed successfully", observedGeneration: 1 },
    ]);
    store.delete(refs.pods, "default", "done", {});
    await run();
    expect(conditionsOf("done").map((condition) => condition.type)).toEqual(["Suspended", "PodScheduled", "Ready"]);
  });

  it("when suspended: Suspended=False PodTerminating while the pod terminates, its IPs and node kept", async () => {
    await runningSandbox("sleepy");
    setMode("sleepy", "Suspended");
    await run();
    expect(pod("sleepy")?.metadata.deletionTimestamp).toBeDefined();
    expect([conditionOf("sleepy", "Suspended"), conditionOf("sleepy", "Ready"), sandboxStatus("sleepy").nodeName]).toEqual([
      { type: "Suspended", status: "False", reason: "PodTerminating", message: "Pod is terminating. Sandbox is suspending", observedGeneration: 2 },
      { type: "Ready", status: "False", reason: "SandboxSuspended", message: "Sandbox is suspending", observedGeneration: 2 },
      "worker-1",
    ]);
  });

  it("once the suspended pod is gone: Suspended=True, no PodScheduled, IPs or node, the selector kept, the pod-name annotation gone", async () => {
    await runningSandbox("sleepy");
    setMode("sleepy", "Suspended");
    await run();
    terminated("sleepy");
    await run();
    expect(conditionsOf("sleepy")).toEqual([
      { type: "Suspended", status: "True", reason: "PodTerminated", message: "Pod has been terminated. Sandbox is suspended", observedGeneration: 2 },
      { type: "Ready", status: "False", reason: "SandboxSuspended", message: "Sandbox is suspended", observedGeneration: 2 },
    ]);
    expect([sandboxStatus("sleepy").podIPs, sandboxStatus("sleepy").nodeName, sandboxStatus("sleepy").selector]).toEqual([undefined, undefined, expect.stringMatching(/^agents\.x-k8s\.io\/sandbox-name-hash=/)]);
    expect(sandbox("sleepy").metadata.annotations).toBeUndefined();
    expect(store.peek(refs.claims, "default", "workspace-sleepy")).toBeDefined();
  });

  it("says Suspended=False NotSuspended again after a resume", async () => {
    await runningSandbox("woken");
    setMode("woken", "Suspended");
    await run();
    terminated("woken");
    await run();
    setMode("woken", "Running");
    await run();
    bind("woken");
    report("woken", "Running", true, ["10.244.1.3"]);
    await run();
    expect([conditionOf("woken", "Suspended"), conditionOf("woken", "Ready")]).toEqual([
      { type: "Suspended", status: "False", reason: "NotSuspended", message: "Sandbox is not suspended", observedGeneration: 3 },
      { type: "Ready", status: "True", reason: "DependenciesReady", message: "Pod is Ready", observedGeneration: 3 },
    ]);
    expect(sandbox("woken").metadata.annotations).toEqual({ [POD_NAME_ANNOTATION]: "woken" });
  });

  it("refuses to delete a pod of its name it does not own when suspended, and says so", async () => {
    foreignObject("Pod", "squatted");
    createSandbox("squatted", { operatingMode: "Suspended", claims: false });
    await run();
    expect([pod("squatted")?.metadata.deletionTimestamp, conditionOf("squatted", "Suspended")]).toEqual([
      undefined,
      { type: "Suspended", status: "False", reason: "PodNotOwned", message: "Refused to delete pod because it is not owned by this sandbox", observedGeneration: 1 },
    ]);
  });

  it("refuses to choose between two pods it controls: Ready=False MultiplePods, not retried", async () => {
    await runningSandbox("twice", { claims: false });
    const original = pod("twice")!;
    foreignObject("Pod", "twice-copy", { labels: { [SANDBOX_NAME_HASH_LABEL]: original.metadata.labels![SANDBOX_NAME_HASH_LABEL]! }, ownerReferences: original.metadata.ownerReferences });
    await run();
    expect([conditionOf("twice", "Ready"), failures]).toEqual([
      { type: "Ready", status: "False", reason: "MultiplePods", message: "multiple Pods (2) are controlled by this Sandbox; refusing to choose or create a Pod", observedGeneration: 1 },
      [],
    ]);
  });

  it("creates no pod for a Sandbox created Suspended, and sets no selector", async () => {
    createSandbox("cold", { operatingMode: "Suspended" });
    await run();
    expect(pod("cold")).toBeUndefined();
    expect(sandbox("cold").status).toEqual({ conditions: [expect.objectContaining({ type: "Suspended", status: "True" }), expect.objectContaining({ type: "Ready", reason: "SandboxSuspended" })] });
  });

  it("refuses a pod of its name that another controller owns, with the controller's error", async () => {
    foreignObject("Pod", "taken", { ownerReferences: [{ apiVersion: "apps/v1", kind: "ReplicaSet", name: "rs", uid: "u-1", controller: true }] });
    createSandbox("taken", { claims: false });
    await run();
    expect(conditionOf("taken", "Ready")).toEqual(
      { type: "Ready", status: "False", reason: "ReconcilerError", message: 'Error seen: pod "taken" is owned by ReplicaSet/rs (UID: u-1), not by sandbox "taken"', observedGeneration: 1 },
    );
    expect(failures.at(-1)).toBe('default/taken: pod "taken" is owned by ReplicaSet/rs (UID: u-1), not by sandbox "taken"');
  });

  it("refuses an unowned pod without the name-hash label, and adopts one that has it", async () => {
    foreignObject("Pod", "stray");
    createSandbox("stray", { claims: false });
    await run();
    expect(conditionOf("stray", "Ready")?.message).toBe(
      'Error seen: cannot adopt unowned pod "stray": missing required pool authorization label ("agents.x-k8s.io/adoptable") or sandbox tracking label ("agents.x-k8s.io/sandbox-name-hash")',
    );
    foreignObject("Pod", "orphan", { labels: { [SANDBOX_NAME_HASH_LABEL]: "64f7a98b" } });
    createSandbox("orphan", { claims: false });
    await run();
    expect(pod("orphan")!.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: "Sandbox", name: "orphan", controller: true })]);
    expect(conditionOf("orphan", "Ready")?.message).toBe("Pod exists with phase: Pending");
  });

  it("still makes the pod when a claim of its name belongs to someone else, and says so", async () => {
    foreignObject("PersistentVolumeClaim", "workspace-clash", { ownerReferences: [{ apiVersion: "v1", kind: "Pod", name: "p", uid: "u-2", controller: true }] });
    createSandbox("clash");
    await run();
    expect(pod("clash")).toBeDefined();
    expect(conditionOf("clash", "Ready")).toMatchObject({ reason: "ReconcilerError", message: 'Error seen: PVC "workspace-clash" is owned by Pod/p (UID: u-2), not by sandbox "clash"' });
  });

  it("makes a headless Service only for spec.service: true, and deletes it for false", async () => {
    await runningSandbox("served", { service: true });
    const service = current(store, refs.services, "served", "default");
    expect([service.spec, service.metadata.ownerReferences?.[0]?.name]).toEqual([
      expect.objectContaining({ clusterIP: "None", clusterIPs: ["None"], type: "ClusterIP", selector: { [SANDBOX_NAME_HASH_LABEL]: expect.any(String) } }),
      "served",
    ]);
    expect([sandboxStatus("served").service, sandboxStatus("served").serviceFQDN, conditionOf("served", "Ready")?.message]).toEqual([
      "served", "served.default.svc.cluster.local", "Pod is Ready; Service Exists",
    ]);
    edit(store, refs.sandboxes, sandbox("served"), (draft) => {
      (draft.spec as Record<string, unknown>).service = false;
    });
    await run();
    expect(store.peek(refs.services, "default", "served")).toBeUndefined();
    expect([sandboxStatus("served").service, sandboxStatus("served").serviceFQDN, conditionOf("served", "Ready")?.message]).toEqual([undefined, undefined, "Pod is Ready"]);
  });

  it("at its shutdownTime with Retain: Ready=False SandboxExpired, the pod gone (PodScheduled with it), the claims kept, the status its conditions only", async () => {
    await runningSandbox("expiring", { shutdownTime: "2026-01-01T00:01:00Z" });
    await run(60_000);
    await run(100);
    expect(sandbox("expiring").status).toEqual({
      conditions: [
        expect.objectContaining({ type: "Suspended", reason: "NotSuspended" }),
        { type: "Ready", status: "False", observedGeneration: 1, reason: "SandboxExpired", message: "Sandbox has expired", lastTransitionTime: "2026-01-01T00:01:00Z" },
      ],
    });
    terminated("expiring");
    await run();
    expect([pod("expiring"), store.peek(refs.claims, "default", "workspace-expiring") !== undefined]).toEqual([undefined, true]);
  });

  it("at its shutdownTime with Delete: the Sandbox is deleted", async () => {
    await runningSandbox("ephemeral", { shutdownTime: "2026-01-01T00:01:00Z", shutdownPolicy: "Delete" });
    await run(60_100);
    expect(store.peek(refs.sandboxes, "default", "ephemeral")).toBeUndefined();
  });

  it("does not look at claims: a deleted claim comes back only when something else wakes the Sandbox", async () => {
    await runningSandbox("unclaimed");
    store.delete(refs.claims, "default", "workspace-unclaimed", {});
    // The claim-protection controller's part, as if no pod used it.
    edit(store, refs.claims, current(store, refs.claims, "workspace-unclaimed", "default"), (draft) => {
      draft.metadata.finalizers = [];
    });
    await run();
    expect(store.peek(refs.claims, "default", "workspace-unclaimed")).toBeUndefined();
    report("unclaimed", "Running", false, ["10.244.1.2"]);
    await run();
    expect(store.peek(refs.claims, "default", "workspace-unclaimed")).toBeDefined();
  });
});
