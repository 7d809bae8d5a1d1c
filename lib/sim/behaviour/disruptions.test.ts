import { ApiException, CoreV1Api, PatchStrategy, setHeaderOptions, type V1Pod } from "@kubernetes/client-node";
import { afterEach, describe, expect, it } from "vitest";
import { eventually } from "../testing/eventually.ts";
import type { DrainReport } from "../drain.ts";
import { aSandbox, startSimFixture, type SimFixture } from "../testing/sim-fixture.ts";

// k8s-behaviour.md, "Pods, nodes, scheduling" and "PodDisruptionBudget": evictions, drains,
// node loss and scheduling failures, each on a fresh simulated cluster.

let sim: SimFixture;
afterEach(() => sim?.cluster.stop());

const sandboxes = { group: "agents.x-k8s.io", version: "v1beta1", namespace: "default", plural: "sandboxes" };

async function sandboxWithReadyPod(name: string, options: Partial<Parameters<typeof aSandbox>[0]> = {}): Promise<V1Pod> {
  await sim.custom.createNamespacedCustomObject({ ...sandboxes, body: aSandbox({ name, ...options }) });
  return eventually(async () => {
    const pod = await sim.core.readNamespacedPod({ namespace: "default", name });
    if (!pod.status?.conditions?.some((one) => one.type === "Ready" && one.status === "True")) throw new Error("not ready");
    return pod;
  });
}

async function failureOf(promise: Promise<unknown>): Promise<{ code: number; body: { message: string; reason: string; details?: { causes?: { reason: string; message: string }[] } } }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiException) return { code: error.code, body: JSON.parse(String(error.body)) };
    throw error;
  }
  throw new Error("expected a failure");
}

const podCondition = (pod: V1Pod, type: string) => pod.status?.conditions?.find((one) => one.type === type);

async function replacementOf(core: CoreV1Api, pod: V1Pod): Promise<V1Pod> {
  return eventually(async () => {
    const next = await core.readNamespacedPod({ namespace: "default", name: pod.metadata!.name! });
    if (next.metadata!.uid === pod.metadata!.uid) throw new Error("not replaced yet");
    return next;
  });
}

/** A minAvailable: 1 budget over the pods with these labels, once the disruption controller has counted them. */
async function guardWithBudget(name: string, matchLabels: Record<string, string>): Promise<void> {
  await sim.policy.createNamespacedPodDisruptionBudget({ namespace: "default", body: { metadata: { name }, spec: { minAvailable: 1, selector: { matchLabels } } } });
  await eventually(async () => {
    const budget = await sim.policy.readNamespacedPodDisruptionBudget({ namespace: "default", name });
    if (budget.status?.currentHealthy !== 1) throw new Error("budget not computed");
  });
}

/** A pod no controller owns, already bound to the node. */
const aBarePod = (name: string, nodeName: string) => ({ metadata: { name }, spec: { nodeName, terminationGracePeriodSeconds: 1, containers: [{ name: "agent", image: "busybox", command: ["sleep", "infinity"] }] } });

/** The uid of the pod of that name now, or undefined when there is none. */
async function uidOf(name: string): Promise<string | undefined> {
  return sim.core.readNamespacedPod({ namespace: "default", name }).then(
    (pod) => pod.metadata!.uid,
    (error: ApiException<unknown>) => {
      if (error.code === 404) return undefined;
      throw error;
    },
  );
}

function evict(name: string) {
  return sim.core.createNamespacedPodEviction({ namespace: "default", name, body: { metadata: { name, namespace: "default" } } });
}

describe("the Eviction API", () => {
  it("marks the pod DisruptionTarget/EvictionByEvictionAPI and deletes it gracefully", async () => {
    sim = await startSimFixture({ clockScale: 20 });
    await sandboxWithReadyPod("evicted");
    await evict("evicted");
    const pod = await sim.core.readNamespacedPod({ namespace: "default", name: "evicted" });
    expect([podCondition(pod, "DisruptionTarget")?.reason, Boolean(pod.metadata!.deletionTimestamp)]).toEqual(["EvictionByEvictionAPI", true]);
  });

  it("refuses with 429 and the budget's cause when a minAvailable: 1 budget protects the pod", async () => {
    sim = await startSimFixture();
    await sandboxWithReadyPod("guarded", { labels: { guard: "yes" } });
    await sim.policy.createNamespacedPodDisruptionBudget({ namespace: "default", body: { metadata: { name: "guarded-budget" }, spec: { minAvailable: 1, selector: { matchLabels: { guard: "yes" } } } } });
    await eventually(async () => {
      const budget = await sim.policy.readNamespacedPodDisruptionBudget({ namespace: "default", name: "guarded-budget" });
      if (budget.status?.currentHealthy !== 1) throw new Error("budget not computed");
    });
    const refused = await failureOf(evict("guarded"));
    expect([refused.code, refused.body.message, refused.body.details?.causes?.[0]]).toEqual([
      429,
      "Cannot evict pod as it would violate the pod's disruption budget.",
      { reason: "DisruptionBudget", message: "The disruption budget guarded-budget needs 1 healthy pods and has 1 currently" },
    ]);
  });
});

describe("draining a node", () => {
  it("strands a sandbox on node-pinned storage: the replacement is Unschedulable with the scheduler's message", async () => {
    sim = await startSimFixture();
    const pod = await sandboxWithReadyPod("pinned");
    const node = pod.spec!.nodeName!;
    await sim.fault(`nodes/${node}/drain`, { timeoutSeconds: 120 });
    const replacement = await eventually(async () => {
      const next = await replacementOf(sim.core, pod);
      if (podCondition(next, "PodScheduled")?.reason !== "Unschedulable") throw new Error("not unschedulable yet");
      return next;
    });
    expect(podCondition(replacement, "PodScheduled")?.message).toBe(
      "0/3 nodes are available: 1 node(s) were unschedulable, 2 node(s) didn't match PersistentVolume's node affinity. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
    );
  });

  it("records a FailedScheduling event for the stranded replacement", async () => {
    sim = await startSimFixture();
    const pod = await sandboxWithReadyPod("pinned-event");
    await sim.fault(`nodes/${pod.spec!.nodeName!}/drain`, { timeoutSeconds: 120 });
    const events = await eventually(async () => {
      const list = await sim.core.listNamespacedEvent({ namespace: "default", fieldSelector: "involvedObject.name=pinned-event,reason=FailedScheduling" });
      if (list.items.length === 0) throw new Error("no event yet");
      return list.items;
    });
    expect(events[0]!.type).toBe("Warning");
  });

  it("brings the stranded sandbox back on the same node with the same claim after uncordon", async () => {
    sim = await startSimFixture();
    const pod = await sandboxWithReadyPod("returns");
    const node = pod.spec!.nodeName!;
    await sim.fault(`nodes/${node}/drain`, { timeoutSeconds: 120 });
    await replacementOf(sim.core, pod);
    await sim.fault(`nodes/${node}/uncordon`);
    const back = await eventually(async () => {
      const next = await replacementOf(sim.core, pod);
      if (podCondition(next, "Ready")?.status !== "True") throw new Error("not ready");
      return next;
    });
    expect([back.spec!.nodeName, back.spec!.volumes!.find((volume) => volume.name === "workspace")?.persistentVolumeClaim?.claimName]).toEqual([node, "workspace-returns"]);
  });

  it("moves a sandbox on portable storage to another node", async () => {
    sim = await startSimFixture({ defaultStorageClass: "portable" });
    const pod = await sandboxWithReadyPod("portable");
    await sim.fault(`nodes/${pod.spec!.nodeName!}/drain`, { timeoutSeconds: 120 });
    const moved = await eventually(async () => {
      const next = await replacementOf(sim.core, pod);
      if (podCondition(next, "Ready")?.status !== "True") throw new Error("not ready");
      return next;
    });
    expect(moved.spec!.nodeName).not.toBe(pod.spec!.nodeName);
  });

  it("refuses a pod with an emptyDir unless told to delete its data, as kubectl does", async () => {
    sim = await startSimFixture();
    const pod = await sandboxWithReadyPod("scratchy", { volumeClaimTemplates: [], volumes: [{ name: "workspace", emptyDir: {} }] });
    const report = (await sim.fault(`nodes/${pod.spec!.nodeName!}/drain`, {})) as { refused: string[]; completed: boolean };
    expect([report.refused, report.completed]).toEqual([["default/scratchy"], false]);
  });

  it("with deleteEmptyDirData reports done only once the emptyDir pod is gone", async () => {
    sim = await startSimFixture();
    const pod = await sandboxWithReadyPod("scratch-done", { volumeClaimTemplates: [], volumes: [{ name: "workspace", emptyDir: {} }] });
    const report = (await sim.fault(`nodes/${pod.spec!.nodeName!}/drain`, { deleteEmptyDirData: true, timeoutSeconds: 600 })) as DrainReport;
    expect([report.completed, await uidOf("scratch-done")]).toEqual([true, expect.not.stringMatching(pod.metadata!.uid!)]);
  });

  it("retries an eviction its budget refuses and finishes once the budget is removed", async () => {
    sim = await startSimFixture();
    const pod = await sandboxWithReadyPod("released", { labels: { hold: "yes" } });
    await guardWithBudget("hold", { hold: "yes" });
    const node = pod.spec!.nodeName!;
    const draining = sim.fault(`nodes/${node}/drain`, { timeoutSeconds: 600 }) as Promise<DrainReport>;
    // The drain cordons and makes its first eviction attempt before it first waits.
    await eventually(async () => {
      if (!(await sim.core.readNode({ name: node })).spec?.unschedulable) throw new Error("not cordoned yet");
    });
    await sim.policy.deleteNamespacedPodDisruptionBudget({ namespace: "default", name: "hold" });
    const report = await draining;
    expect([report.completed, report.log.some((line) => line.includes("(will retry after 5s): Cannot evict pod"))]).toEqual([true, true]);
  });

  it("refuses a pod with no controller unless forced, as kubectl does", async () => {
    sim = await startSimFixture();
    await sim.core.createNamespacedPod({ namespace: "default", body: aBarePod("bare", "worker-1") });
    const report = (await sim.fault("nodes/worker-1/drain", {})) as DrainReport;
    expect([report.refused, report.completed, report.log.at(-1)]).toEqual([
      ["default/bare"],
      false,
      'error: unable to drain node "worker-1" due to error: cannot delete Pods that declare no controller (use --force to override): default/bare',
    ]);
  });

  it("reports kubectl's reason for a refusal, naming its pods", async () => {
    sim = await startSimFixture();
    await sim.core.createNamespacedPod({ namespace: "default", body: aBarePod("bare", "worker-1") });
    const report = (await sim.fault("nodes/worker-1/drain", {})) as DrainReport;
    expect(report.refusals).toEqual(["cannot delete Pods that declare no controller (use --force to override): default/bare"]);
  });

  it("evicts a pod with no controller when forced, and it is gone for good", async () => {
    sim = await startSimFixture();
    await sim.core.createNamespacedPod({ namespace: "default", body: aBarePod("forced", "worker-1") });
    const report = (await sim.fault("nodes/worker-1/drain", { force: true, timeoutSeconds: 600 })) as DrainReport;
    expect([report.evicted, report.completed, await uidOf("forced")]).toEqual([["default/forced"], true, undefined]);
  });

  it("is held up by a minAvailable: 1 budget until its timeout, leaving the pod where it was", async () => {
    sim = await startSimFixture();
    const pod = await sandboxWithReadyPod("held", { labels: { hold: "yes" } });
    await guardWithBudget("hold", { hold: "yes" });
    const report = (await sim.fault(`nodes/${pod.spec!.nodeName!}/drain`, { timeoutSeconds: 30 })) as { blocked: string[] };
    const after = await sim.core.readNamespacedPod({ namespace: "default", name: "held" });
    expect([report.blocked, after.metadata!.uid]).toEqual([["default/held"], pod.metadata!.uid]);
  });
});

describe("losing a node", () => {
  it("turns the node Ready=Unknown with the unreachable taints", async () => {
    sim = await startSimFixture();
    const pod = await sandboxWithReadyPod("lost");
    const node = pod.spec!.nodeName!;
    await sim.fault(`nodes/${node}/lose`);
    const lost = await eventually(async () => {
      const read = await sim.core.readNode({ name: node });
      if (read.status?.conditions?.find((one) => one.type === "Ready")?.status !== "Unknown") throw new Error("still ready");
      return read;
    });
    expect(lost.spec!.taints!.map((taint) => `${taint.key}:${taint.effect}`).sort()).toEqual(["node.kubernetes.io/unreachable:NoExecute", "node.kubernetes.io/unreachable:NoSchedule"]);
  });

  it("deletes its pods after their toleration (DeletionByTaintManager), but they stay Terminating while the node is gone", async () => {
    sim = await startSimFixture({ clockScale: 1000 });
    const pod = await sandboxWithReadyPod("stuck");
    await sim.fault(`nodes/${pod.spec!.nodeName!}/lose`);
    const terminating = await eventually(async () => {
      const read = await sim.core.readNamespacedPod({ namespace: "default", name: "stuck" });
      if (!read.metadata!.deletionTimestamp) throw new Error("not deleted yet");
      return read;
    }, { timeoutMs: 15_000 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const still = await sim.core.readNamespacedPod({ namespace: "default", name: "stuck" });
    expect([podCondition(terminating, "DisruptionTarget")?.reason, still.metadata!.uid]).toEqual(["DeletionByTaintManager", pod.metadata!.uid]);
  });

  it("lets the stuck pods go and the sandbox come back when the node returns", async () => {
    sim = await startSimFixture({ clockScale: 1000 });
    const pod = await sandboxWithReadyPod("comeback");
    const node = pod.spec!.nodeName!;
    await sim.fault(`nodes/${node}/lose`);
    await eventually(async () => {
      const read = await sim.core.readNamespacedPod({ namespace: "default", name: "comeback" });
      if (!read.metadata!.deletionTimestamp) throw new Error("not deleted yet");
    }, { timeoutMs: 15_000 });
    await sim.fault(`nodes/${node}/restore`);
    const back = await eventually(async () => {
      const next = await replacementOf(sim.core, pod);
      if (podCondition(next, "Ready")?.status !== "True") throw new Error("not ready");
      return next;
    }, { timeoutMs: 15_000 });
    expect(back.spec!.nodeName).toBe(node);
  });
});

describe("a node lost for less than the toleration", () => {
  it("gets its pods back to Ready when it returns", async () => {
    // 50×: the 40 s node grace is 0.8 s, the 300 s toleration 6 s — room to restore in between.
    sim = await startSimFixture({ clockScale: 50 });
    const pod = await sandboxWithReadyPod("blip");
    const node = pod.spec!.nodeName!;
    await sim.fault(`nodes/${node}/lose`);
    await eventually(async () => {
      const read = await sim.core.readNamespacedPod({ namespace: "default", name: "blip" });
      if (podCondition(read, "Ready")?.status !== "False") throw new Error("still ready");
    });
    await sim.fault(`nodes/${node}/restore`);
    const back = await eventually(async () => {
      const read = await sim.core.readNamespacedPod({ namespace: "default", name: "blip" });
      if (podCondition(read, "Ready")?.status !== "True") throw new Error("not ready again");
      return read;
    });
    expect(back.metadata!.uid).toBe(pod.metadata!.uid);
  });
});

describe("suspending a sandbox whose pod was never scheduled", () => {
  it("removes the pending pod at once", async () => {
    sim = await startSimFixture();
    for (const node of ["worker-1", "worker-2", "worker-3"]) await sim.fault(`nodes/${node}/cordon`);
    await sim.custom.createNamespacedCustomObject({ ...sandboxes, body: aSandbox({ name: "never-ran" }) });
    await eventually(() => sim.core.readNamespacedPod({ namespace: "default", name: "never-ran" }));
    await sim.custom.patchNamespacedCustomObject({ ...sandboxes, name: "never-ran", body: { spec: { operatingMode: "Suspended" } } }, setHeaderOptions("Content-Type", PatchStrategy.MergePatch));
    await eventually(async () => {
      const code = await sim.core.readNamespacedPod({ namespace: "default", name: "never-ran" }).then(() => 200, (error: ApiException<unknown>) => error.code);
      if (code !== 404) throw new Error("pod still there");
    }, { timeoutMs: 3_000 });
  });
});

describe("preemption", () => {
  it("marks the pod DisruptionTarget/PreemptionByScheduler", async () => {
    sim = await startSimFixture({ clockScale: 20 });
    await sandboxWithReadyPod("preempted");
    await sim.fault("namespaces/default/pods/preempted/preempt");
    const pod = await sim.core.readNamespacedPod({ namespace: "default", name: "preempted" });
    expect(podCondition(pod, "DisruptionTarget")?.reason).toBe("PreemptionByScheduler");
  });
});

describe("a cluster with no default StorageClass", () => {
  it("leaves a claim without a class Pending with the real event", async () => {
    sim = await startSimFixture({ defaultStorageClass: null });
    await sim.core.createNamespacedPersistentVolumeClaim({ namespace: "default", body: { metadata: { name: "classless" }, spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } } } });
    const event = await eventually(async () => {
      const list = await sim.core.listNamespacedEvent({ namespace: "default", fieldSelector: "involvedObject.name=classless" });
      const found = list.items.find((one) => one.reason === "FailedBinding");
      if (!found) throw new Error("no event yet");
      return found;
    });
    const claim = await sim.core.readNamespacedPersistentVolumeClaim({ namespace: "default", name: "classless" });
    expect([claim.status!.phase, event.message]).toEqual(["Pending", "no persistent volumes available for this claim and no storage class is set"]);
  });

  it("keeps a sandbox's pod Pending, unscheduled, with its claim", async () => {
    sim = await startSimFixture({ defaultStorageClass: null });
    await sim.custom.createNamespacedCustomObject({ ...sandboxes, body: aSandbox({ name: "stuck" }) });
    const pod = await eventually(async () => {
      const found = await sim!.core.readNamespacedPod({ namespace: "default", name: "stuck" });
      if (podCondition(found, "PodScheduled")?.status !== "False") throw new Error("not judged by the scheduler yet");
      return found;
    });
    expect([pod.status!.phase, pod.spec!.nodeName, podCondition(pod, "PodScheduled")?.reason]).toEqual(["Pending", undefined, "Unschedulable"]);
  });

  it("binds a WaitForFirstConsumer claim on the node its first pod is scheduled to", async () => {
    sim = await startSimFixture();
    const pod = await sandboxWithReadyPod("wffc");
    const claim = await sim.core.readNamespacedPersistentVolumeClaim({ namespace: "default", name: "workspace-wffc" });
    expect(claim.metadata!.annotations!["volume.kubernetes.io/selected-node"]).toBe(pod.spec!.nodeName);
  });
});

describe("patching a node", () => {
  it("cordons with kubectl's own strategic merge patch", async () => {
    sim = await startSimFixture();
    const node = await sim.core.patchNode({ name: "worker-1", body: { spec: { unschedulable: true } } }, setHeaderOptions("Content-Type", PatchStrategy.StrategicMergePatch));
    expect(node.spec!.unschedulable).toBe(true);
  });
});
