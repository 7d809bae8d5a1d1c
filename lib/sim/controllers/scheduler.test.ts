import { describe, expect, it } from "vitest";
import { refs } from "../k8s-objects.ts";
import { LOCAL_PATH_CLASS } from "../storage-topology.ts";
import {
  fitErrorMessage, fitsResources, podRequests, preemptionMessage, SCHEDULER_WORDING, SELECTED_NODE_ANNOTATION, type NodeStatus,
} from "./scheduler.ts";
import { AgentSandboxController } from "./agent-sandbox-controller.ts";
import { ReconcileLoop } from "./reconciler.ts";
import { createClaim, createPod, current, edit, eventsFor, mounting, podCondition, volumeCluster } from "./test-support.ts";

const unresolvable = (reason: string): NodeStatus => ({ code: "UnschedulableAndUnresolvable", reasons: [reason] });

describe("FitError message", () => {
  it("sorts the reason histogram as Go's sort.Strings does, counts first", () => {
    const statuses = [unresolvable("node(s) were unschedulable"), unresolvable("b"), unresolvable("b"), ...Array.from({ length: 10 }, () => unresolvable("a"))];
    expect(fitErrorMessage(13, { statuses }, "")).toBe("0/13 nodes are available: 1 node(s) were unschedulable, 10 a, 2 b.");
  });

  it("counts every reason of a node that failed NodeResourcesFit for two resources", () => {
    const statuses: NodeStatus[] = [{ code: "Unschedulable", reasons: ["Insufficient cpu", "Insufficient memory"] }, unresolvable("node(s) were unschedulable")];
    expect(fitErrorMessage(2, { statuses }, "")).toBe("0/2 nodes are available: 1 Insufficient cpu, 1 Insufficient memory, 1 node(s) were unschedulable.");
  });

  it("reports a PreFilter rejection once instead of per node, then the preemption message", () => {
    const statuses = [1, 2, 3].map(() => unresolvable('persistentvolumeclaim "data" not found'));
    const pod = { metadata: { name: "p" }, spec: {} };
    expect(fitErrorMessage(3, { preFilterMessage: 'persistentvolumeclaim "data" not found', statuses }, preemptionMessage(pod, statuses))).toBe(
      '0/3 nodes are available: persistentvolumeclaim "data" not found. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
    );
  });

  it("tells nodes preemption could have helped on (resources) from the rest", () => {
    const statuses: NodeStatus[] = [{ code: "Unschedulable", reasons: ["Insufficient cpu"] }, { code: "Unschedulable", reasons: ["Too many pods"] }, unresolvable("x")];
    expect(preemptionMessage({ metadata: {}, spec: {} }, statuses)).toBe(
      "preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.",
    );
    expect(preemptionMessage({ metadata: {}, spec: { preemptionPolicy: "Never" } }, statuses)).toBe("preemption: not eligible due to preemptionPolicy=Never.");
  });
});

describe("resources", () => {
  it("takes limits for missing requests and the largest init container", () => {
    const pod = {
      metadata: {},
      spec: {
        containers: [{ name: "a", resources: { limits: { cpu: "500m", memory: "1Gi" } } }, { name: "b", resources: { requests: { cpu: "250m" } } }],
        initContainers: [{ name: "init", resources: { requests: { cpu: "2", memory: "64Mi" } } }],
      },
    };
    expect(podRequests(pod)).toEqual({ milliCpu: 2000, memory: 1024 ** 3, nonZeroMilliCpu: 2000, nonZeroMemory: 1024 ** 3 + 200 * 1024 ** 2 });
  });

  it("says Too many pods before the resources, and is unresolvable when the pod is larger than the node", () => {
    const usage = { requests: { milliCpu: 7500, memory: 0, nonZeroMilliCpu: 7500, nonZeroMemory: 0 }, pods: 110 };
    const allocatable = { milliCpu: 8000, memory: 32 * 1024 ** 3, pods: 110 };
    expect(fitsResources({ milliCpu: 1000, memory: 0, nonZeroMilliCpu: 1000, nonZeroMemory: 0 }, usage, allocatable)).toEqual({
      code: "Unschedulable",
      reasons: ["Too many pods", "Insufficient cpu"],
    });
    expect(fitsResources({ milliCpu: 9000, memory: 0, nonZeroMilliCpu: 9000, nonZeroMemory: 0 }, { ...usage, pods: 0 }, allocatable)?.code).toBe("UnschedulableAndUnresolvable");
  });
});

describe("Scheduler", () => {
  it("binds a pod to the least loaded node with PodScheduled=True and a Scheduled event", async () => {
    const cluster = volumeCluster();
    createPod(cluster.store, "busy", { containers: [{ name: "main", image: "busybox", resources: { requests: { cpu: "4" } } }], nodeName: "worker-1" });
    createPod(cluster.store, "web");
    await cluster.settle();
    const pod = current(cluster.store, refs.pods, "web", "default");
    expect((pod.spec as { nodeName?: string }).nodeName).toBe("worker-2");
    expect(podCondition(pod, "PodScheduled")).toMatchObject({ status: "True" });
    expect(eventsFor(cluster.store, "web")).toEqual([
      { type: "Normal", reason: "Scheduled", message: "Successfully assigned default/web to worker-2", source: "default-scheduler", count: 1 },
    ]);
  });

  it("binds a WaitForFirstConsumer claim after its pod is scheduled, pinned to that node", async () => {
    const cluster = volumeCluster({ defaultClass: LOCAL_PATH_CLASS });
    createClaim(cluster.store, "data");
    createPod(cluster.store, "app", mounting("data"));
    await cluster.settle(5_000);
    const claim = current(cluster.store, refs.claims, "data", "default");
    const pod = current(cluster.store, refs.pods, "app", "default");
    const node = (pod.spec as { nodeName?: string }).nodeName;
    expect(node).toBe("worker-1");
    expect(claim.metadata.annotations?.[SELECTED_NODE_ANNOTATION]).toBe(node);
    expect(claim.status).toMatchObject({ phase: "Bound" });
    const volume = current(cluster.store, refs.volumes, String((claim.spec as { volumeName: string }).volumeName));
    expect(volume.spec).toMatchObject({ nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: "kubernetes.io/hostname", operator: "In", values: [node] }] }] } } });
  });

  it("keeps the replacement of a pod whose node was cordoned Pending with kube-scheduler's message", async () => {
    const cluster = volumeCluster({ defaultClass: LOCAL_PATH_CLASS });
    createClaim(cluster.store, "data");
    createPod(cluster.store, "app", mounting("data"));
    await cluster.settle(5_000);
    expect((current(cluster.store, refs.pods, "app", "default").spec as { nodeName?: string }).nodeName).toBe("worker-1");

    edit(cluster.store, refs.nodes, current(cluster.store, refs.nodes, "worker-1"), (node) => {
      node.spec = { ...(node.spec as object), unschedulable: true };
    });
    cluster.store.delete(refs.pods, "default", "app");
    createPod(cluster.store, "app", mounting("data"));
    await cluster.settle();

    // The cordoned node fails NodeUnschedulable before VolumeBinding is asked; the others fail
    // the PV's node affinity. v1.34 wording, as the simulated API server reports v1.34.0.
    const message =
      "0/3 nodes are available: 1 node(s) were unschedulable, 2 node(s) didn't match PersistentVolume's node affinity. " +
      "no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.";
    const pod = current(cluster.store, refs.pods, "app", "default");
    expect((pod.spec as { nodeName?: string }).nodeName).toBeUndefined();
    expect(podCondition(pod, "PodScheduled")).toMatchObject({ status: "False", reason: "Unschedulable", message });
    expect(eventsFor(cluster.store, "app").filter((event) => event.reason === "FailedScheduling")).toEqual([
      { type: "Warning", reason: "FailedScheduling", message, source: "default-scheduler", count: 1 },
    ]);

    // Uncordoned, the node takes the pod back.
    edit(cluster.store, refs.nodes, current(cluster.store, refs.nodes, "worker-1"), (node) => {
      node.spec = { ...(node.spec as object), unschedulable: false };
    });
    await cluster.settle();
    expect((current(cluster.store, refs.pods, "app", "default").spec as { nodeName?: string }).nodeName).toBe("worker-1");
  });

  it("words the same failure as v1.32 did when asked to", async () => {
    const cluster = volumeCluster({ defaultClass: LOCAL_PATH_CLASS, scheduler: { wording: SCHEDULER_WORDING["1.32"] } });
    createClaim(cluster.store, "data");
    createPod(cluster.store, "app", mounting("data"));
    await cluster.settle(5_000);
    edit(cluster.store, refs.nodes, current(cluster.store, refs.nodes, "worker-1"), (node) => {
      node.spec = { ...(node.spec as object), unschedulable: true };
    });
    cluster.store.delete(refs.pods, "default", "app");
    createPod(cluster.store, "app", mounting("data"));
    await cluster.settle();
    expect(podCondition(current(cluster.store, refs.pods, "app", "default"), "PodScheduled")?.message).toBe(
      "0/3 nodes are available: 1 node(s) were unschedulable, 2 node(s) had volume node affinity conflict. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
    );
  });

  it("names the untolerated taint of an unreachable node and the nodes the selector rules out", async () => {
    const cluster = volumeCluster();
    edit(cluster.store, refs.nodes, current(cluster.store, refs.nodes, "worker-1"), (node) => {
      node.spec = { ...(node.spec as object), taints: [{ key: "node.kubernetes.io/unreachable", effect: "NoSchedule" }, { key: "node.kubernetes.io/unreachable", effect: "NoExecute" }] };
    });
    edit(cluster.store, refs.nodes, current(cluster.store, refs.nodes, "worker-1"), (node) => {
      node.metadata.labels = { ...node.metadata.labels, disk: "ssd" };
    });
    createPod(cluster.store, "picky", { nodeSelector: { disk: "ssd" } });
    await cluster.settle();
    expect(podCondition(current(cluster.store, refs.pods, "picky", "default"), "PodScheduled")?.message).toBe(
      "0/3 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }, 2 node(s) didn't match Pod's node affinity/selector. " +
        "no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
    );
  });

  it("rejects a pod whose claim does not exist in PreFilter, with the lister's message", async () => {
    const cluster = volumeCluster();
    createPod(cluster.store, "orphan", mounting("missing"));
    await cluster.settle();
    expect(podCondition(current(cluster.store, refs.pods, "orphan", "default"), "PodScheduled")?.message).toBe(
      '0/3 nodes are available: persistentvolumeclaim "missing" not found. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
    );
  });

  it("waits for an unbound claim of an Immediate (or no) class, and schedules once it binds", async () => {
    const cluster = volumeCluster({ defaultClass: null });
    createClaim(cluster.store, "data");
    createPod(cluster.store, "app", mounting("data"));
    await cluster.settle();
    expect(podCondition(current(cluster.store, refs.pods, "app", "default"), "PodScheduled")?.message).toBe(
      "0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
    );
    // An administrator creates a matching volume; the claim binds and the pod follows.
    cluster.store.create(refs.volumes, {
      apiVersion: "v1",
      kind: "PersistentVolume",
      metadata: { name: "manual" },
      spec: { capacity: { storage: "5Gi" }, accessModes: ["ReadWriteOnce"], hostPath: { path: "/srv/manual" } },
      status: { phase: "Pending" },
    });
    // The persistentvolume-controller finds it on its next resync of the claim (15 s).
    await cluster.settle(15_000);
    expect((current(cluster.store, refs.pods, "app", "default").spec as { nodeName?: string }).nodeName).toBe("worker-1");
  });

  it("tries an unschedulable pod again every minute", async () => {
    const cluster = volumeCluster({ nodes: 1 });
    createPod(cluster.store, "huge", { containers: [{ name: "main", image: "busybox", resources: { requests: { cpu: "6" } } }] });
    createPod(cluster.store, "hungry", { containers: [{ name: "main", image: "busybox", resources: { requests: { cpu: "4" } } }] });
    await cluster.settle();
    const failed = () => eventsFor(cluster.store, "hungry").filter((event) => event.reason === "FailedScheduling");
    expect(failed()).toEqual([
      {
        type: "Warning",
        reason: "FailedScheduling",
        message: "0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.",
        source: "default-scheduler",
        count: 1,
      },
    ]);
    await cluster.settle(60_000);
    expect(failed()[0]?.count).toBe(2);
    // The big pod goes away: the waiting one fits at once.
    cluster.store.delete(refs.pods, "default", "huge");
    await cluster.settle();
    expect((current(cluster.store, refs.pods, "hungry", "default").spec as { nodeName?: string }).nodeName).toBe("worker-1");
  });

  it("gives up waiting for a claim that never binds after the bind timeout, and tries again", async () => {
    const cluster = volumeCluster({ defaultClass: LOCAL_PATH_CLASS, scheduler: { bindTimeoutMs: 30_000 } });
    cluster.binder.failProvisioning(LOCAL_PATH_CLASS, "disk on fire");
    createClaim(cluster.store, "data");
    createPod(cluster.store, "app", mounting("data"));
    await cluster.settle(31_000);
    const pod = current(cluster.store, refs.pods, "app", "default");
    expect(podCondition(pod, "PodScheduled")).toMatchObject({
      status: "False",
      reason: "SchedulerError",
      message: 'running PreBind plugin "VolumeBinding": binding volumes: context deadline exceeded',
    });
    cluster.binder.failProvisioning(LOCAL_PATH_CLASS, null);
    await cluster.settle(5_000);
    expect((current(cluster.store, refs.pods, "app", "default").spec as { nodeName?: string }).nodeName).toBe("worker-1");
  });

  it("binds a pod whose claims were being provisioned to its node even if the node is cordoned meanwhile", async () => {
    const cluster = volumeCluster({ defaultClass: LOCAL_PATH_CLASS, provisionDelayMs: 5_000 });
    createClaim(cluster.store, "data");
    createPod(cluster.store, "app", mounting("data"));
    await cluster.settle(1_000);
    expect(current(cluster.store, refs.claims, "data", "default").metadata.annotations?.[SELECTED_NODE_ANNOTATION]).toBe("worker-1");
    edit(cluster.store, refs.nodes, current(cluster.store, refs.nodes, "worker-1"), (node) => {
      node.spec = { ...(node.spec as object), unschedulable: true };
    });
    await cluster.settle(6_000);
    expect((current(cluster.store, refs.pods, "app", "default").spec as { nodeName?: string }).nodeName).toBe("worker-1");
  });

  it("tells the drain story of k8s-behaviour.md: the sandbox's replacement pod waits for the node its workspace lives on", async () => {
    const cluster = volumeCluster({ defaultClass: LOCAL_PATH_CLASS, nodes: 2, scheduler: { wording: SCHEDULER_WORDING["1.32"] } });
    const sandboxes = new ReconcileLoop(new AgentSandboxController(cluster.store, cluster.clock), cluster.store, cluster.clock);
    sandboxes.start();
    cluster.loops.push(sandboxes);
    cluster.store.create(refs.sandboxes, {
      apiVersion: "agents.x-k8s.io/v1beta1",
      kind: "Sandbox",
      metadata: { name: "box", namespace: "default" },
      spec: {
        operatingMode: "Running",
        podTemplate: { spec: { containers: [{ name: "agent", image: "busybox" }] } },
        volumeClaimTemplates: [{ metadata: { name: "workspace" }, spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "2Gi" } } } }],
      },
    });
    await cluster.settle(5_000);
    const first = current(cluster.store, refs.pods, "box", "default");
    expect((first.spec as { nodeName?: string }).nodeName).toBe("worker-1");
    expect((current(cluster.store, refs.claims, "workspace-box", "default").status as { phase?: string }).phase).toBe("Bound");

    // kubectl drain worker-1: cordon, then the pod goes; agent-sandbox puts a new one in its place.
    edit(cluster.store, refs.nodes, current(cluster.store, refs.nodes, "worker-1"), (node) => {
      node.spec = { ...(node.spec as object), unschedulable: true };
    });
    cluster.store.delete(refs.pods, "default", "box");
    await cluster.settle();
    const replacement = current(cluster.store, refs.pods, "box", "default");
    expect(replacement.metadata.uid).not.toBe(first.metadata.uid);
    expect(podCondition(replacement, "PodScheduled")).toMatchObject({
      status: "False",
      reason: "Unschedulable",
      message: "0/2 nodes are available: 1 node(s) had volume node affinity conflict, 1 node(s) were unschedulable. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
    });
    // agent-sandbox (v0.5.6) mirrors the pod's PodScheduled: the Sandbox says why its pod waits.
    expect((current(cluster.store, refs.sandboxes, "box", "default").status as { conditions: { type: string; status: string; reason?: string }[] }).conditions).toEqual([
      expect.objectContaining({ type: "Suspended", status: "False", reason: "NotSuspended" }),
      expect.objectContaining({ type: "PodScheduled", status: "False", reason: "Unschedulable", message: expect.stringContaining("volume node affinity conflict") }),
      expect.objectContaining({ type: "Ready", status: "False", reason: "DependenciesNotReady", message: "Pod exists with phase: Pending" }),
    ]);

    // kubectl uncordon worker-1: the replacement lands next to its workspace.
    edit(cluster.store, refs.nodes, current(cluster.store, refs.nodes, "worker-1"), (node) => {
      node.spec = { ...(node.spec as object), unschedulable: false };
    });
    await cluster.settle();
    expect((current(cluster.store, refs.pods, "box", "default").spec as { nodeName?: string }).nodeName).toBe("worker-1");
  });
});
