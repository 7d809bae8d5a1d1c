import { ApiException, Watch, type CoreV1Event, type V1Container, type V1Pod } from "@kubernetes/client-node";
import { afterEach, describe, expect, it } from "vitest";
import { eventually } from "../testing/eventually.ts";
import { execIn, startExec } from "../testing/exec.ts";
import { aSandbox, startSimFixture, type SimFixture } from "../testing/sim-fixture.ts";

// k8s-behaviour.md: grace periods and preStop, exec sessions that end with their container, the
// kubelet's pressure eviction, the pod GC, event expiry, snapshots and restores, provisioning
// failures, and container logs.

let sim: SimFixture | undefined;
afterEach(async () => {
  await sim?.cluster.stop();
  sim = undefined;
});

const sandboxes = { group: "agents.x-k8s.io", version: "v1beta1", namespace: "default", plural: "sandboxes" };
const podCondition = (pod: V1Pod, type: string) => pod.status?.conditions?.find((one) => one.type === type);

async function readyPod(fixture: SimFixture, name: string): Promise<V1Pod> {
  return eventually(async () => {
    const pod = await fixture.core.readNamespacedPod({ namespace: "default", name });
    if (podCondition(pod, "Ready")?.status !== "True") throw new Error("not ready");
    return pod;
  });
}

/** The events about an object, oldest first. */
async function eventsOf(fixture: SimFixture, name: string): Promise<CoreV1Event[]> {
  const { items } = await fixture.core.listNamespacedEvent({ namespace: "default", fieldSelector: `involvedObject.name=${name}` });
  return items.sort((a, b) => Number(a.metadata!.resourceVersion) - Number(b.metadata!.resourceVersion));
}

async function status(promise: Promise<unknown>): Promise<number> {
  return promise.then(() => 200, (error: ApiException<unknown>) => error.code);
}

describe("pod termination", () => {
  it("takes the pod's grace period: the pod stays Terminating until it has passed", async () => {
    sim = await startSimFixture({ clockScale: 10 });
    await sim.core.createNamespacedPod({ namespace: "default", body: { metadata: { name: "slow" }, spec: { terminationGracePeriodSeconds: 5, containers: [{ name: "agent", image: "busybox", command: ["sleep", "infinity"] }] } } });
    await readyPod(sim, "slow");
    const began = Date.now();
    await sim.core.deleteNamespacedPod({ namespace: "default", name: "slow" });
    const duringGrace = await status(sim.core.readNamespacedPod({ namespace: "default", name: "slow" }));
    await eventually(async () => {
      if ((await status(sim!.core.readNamespacedPod({ namespace: "default", name: "slow" }))) !== 404) throw new Error("still there");
    });
    // 5 simulated seconds at 10× is 0.5 s of real time.
    expect([duringGrace, Date.now() - began >= 450]).toEqual([200, true]);
  });

  /** Deletes a running pod and answers how much cluster time passed until it was gone. */
  async function clusterTimeToDelete(fixture: SimFixture, container: V1Container): Promise<number> {
    const name = String(container.name);
    await fixture.core.createNamespacedPod({ namespace: "default", body: { metadata: { name }, spec: { terminationGracePeriodSeconds: 30, containers: [container] } } });
    await readyPod(fixture, name);
    const began = fixture.cluster.clock.now().getTime();
    await fixture.core.deleteNamespacedPod({ namespace: "default", name });
    await eventually(async () => {
      if ((await status(fixture.core.readNamespacedPod({ namespace: "default", name }))) !== 404) throw new Error("still there");
    });
    return fixture.cluster.clock.now().getTime() - began;
  }

  it("ends at once when the main process stops on SIGTERM, as a shell that traps it does", async () => {
    sim = await startSimFixture({ clockScale: 10 });
    const trapping = { name: "trapping", image: "busybox", command: ["sh", "-c", "trap 'exit 0' TERM; sleep infinity & wait"] };
    expect(await clusterTimeToDelete(sim, trapping)).toBeLessThan(10_000);
  });

  it("ends at once for an image's own entrypoint, which stops on SIGTERM as pause and servers do", async () => {
    sim = await startSimFixture({ clockScale: 10 });
    expect(await clusterTimeToDelete(sim, { name: "pause", image: "registry.k8s.io/pause:3.10" })).toBeLessThan(10_000);
  });

  it("waits out the grace period for a main process that ignores SIGTERM", async () => {
    sim = await startSimFixture();
    const ignoring = { name: "ignoring", image: "busybox", command: ["sleep", "infinity"] };
    expect(await clusterTimeToDelete(sim, ignoring)).toBeGreaterThanOrEqual(30_000);
  });

  it("runs the preStop hook first, whose writes to the claim survive the pod", async () => {
    sim = await startSimFixture({ clockScale: 50 });
    const sandbox = aSandbox({ name: "hooked" });
    Object.assign(sandbox.spec.podTemplate.spec.containers[0]!, { lifecycle: { preStop: { exec: { command: ["sh", "-c", "echo saved > /sandbox/prestop.txt"] } } } });
    await sim.custom.createNamespacedCustomObject({ ...sandboxes, body: sandbox });
    const first = await readyPod(sim, "hooked");
    await sim.core.deleteNamespacedPod({ namespace: "default", name: "hooked" });
    await eventually(async () => {
      const pod = await readyPod(sim!, "hooked");
      if (pod.metadata!.uid === first.metadata!.uid) throw new Error("same pod");
    });
    expect((await execIn(sim.config, "default", "hooked", ["cat", "/sandbox/prestop.txt"])).stdout).toBe("saved\n");
  });
  it("counts the preStop hook against the grace period: a hook that outlasts it is cut off", async () => {
    sim = await startSimFixture({ clockScale: 10 });
    const hook = { preStop: { exec: { command: ["sh", "-c", "sleep 60"] } } };
    await sim.core.createNamespacedPod({ namespace: "default", body: { metadata: { name: "hooked-long" }, spec: { terminationGracePeriodSeconds: 3, containers: [{ name: "agent", image: "busybox", command: ["sleep", "infinity"], lifecycle: hook }] } } });
    await readyPod(sim, "hooked-long");
    const began = Date.now();
    await sim.core.deleteNamespacedPod({ namespace: "default", name: "hooked-long" });
    await eventually(async () => {
      if ((await status(sim!.core.readNamespacedPod({ namespace: "default", name: "hooked-long" }))) !== 404) throw new Error("still there");
    }, { timeoutMs: 5_000 });
    // 3 simulated seconds at 10× is 0.3 s; the 60 s hook would have been 6 s.
    expect(Date.now() - began).toBeLessThan(3_000);
  });
});

describe("a container that exits", () => {
  const exiting = (name: string, restartPolicy: string, exitCode: number): V1Pod => ({
    metadata: { name },
    spec: { restartPolicy, containers: [{ name: "main", image: "busybox", command: ["sh", "-c", `exit ${exitCode}`] }] },
  });

  async function podWhen(fixture: SimFixture, name: string, done: (pod: V1Pod) => boolean): Promise<V1Pod> {
    return eventually(async () => {
      const pod = await fixture.core.readNamespacedPod({ namespace: "default", name });
      if (!done(pod)) throw new Error(`not yet: ${JSON.stringify(pod.status?.containerStatuses?.[0]?.state)}`);
      return pod;
    });
  }

  it("is restarted under restartPolicy Always: the pod stays Running, the container in CrashLoopBackOff", async () => {
    sim = await startSimFixture();
    await sim.core.createNamespacedPod({ namespace: "default", body: exiting("crasher", "Always", 1) });
    const pod = await podWhen(sim, "crasher", (one) => one.status?.containerStatuses?.[0]?.state?.waiting?.reason === "CrashLoopBackOff");
    const container = pod.status!.containerStatuses![0]!;
    expect([pod.status!.phase, container.lastState?.terminated?.exitCode, container.state!.waiting!.message]).toEqual([
      "Running", 1, expect.stringMatching(new RegExp(`^back-off \\d+s restarting failed container=main pod=crasher_default\\(${pod.metadata!.uid}\\)$`)),
    ]);
  });

  it("counts a restart when the container starts again", async () => {
    sim = await startSimFixture();
    await sim.core.createNamespacedPod({ namespace: "default", body: exiting("again", "Always", 0) });
    const pod = await podWhen(sim, "again", (one) => (one.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 2);
    expect(pod.status!.phase).toBe("Running");
  });

  it("ends the pod Failed under restartPolicy Never", async () => {
    sim = await startSimFixture();
    await sim.core.createNamespacedPod({ namespace: "default", body: exiting("once", "Never", 2) });
    const pod = await podWhen(sim, "once", (one) => one.status?.phase === "Failed");
    expect(pod.status!.containerStatuses![0]!.state!.terminated).toMatchObject({ exitCode: 2, reason: "Error" });
  });

  it("ends the pod Succeeded under restartPolicy OnFailure when it exits 0", async () => {
    sim = await startSimFixture();
    await sim.core.createNamespacedPod({ namespace: "default", body: exiting("job", "OnFailure", 0) });
    const pod = await podWhen(sim, "job", (one) => one.status?.phase === "Succeeded");
    expect(pod.status!.containerStatuses![0]!.state!.terminated).toMatchObject({ exitCode: 0, reason: "Completed" });
  });
});

describe("an exec session", () => {
  it("is killed with its container when the pod is deleted, and reports exit code 137", async () => {
    sim = await startSimFixture({ clockScale: 50 });
    await sim.core.createNamespacedPod({ namespace: "default", body: { metadata: { name: "doomed" }, spec: { terminationGracePeriodSeconds: 1, containers: [{ name: "agent", image: "busybox", command: ["sleep", "infinity"] }] } } });
    await readyPod(sim, "doomed");
    // 600 simulated seconds are 12 s of real time: the session must end long before that.
    const session = startExec(sim.config, "default", "doomed", ["sh", "-c", "echo attached; sleep 600"]);
    await eventually(() => {
      if (!session.stdoutSoFar().includes("attached")) throw new Error("not attached yet");
    });
    await sim.core.deleteNamespacedPod({ namespace: "default", name: "doomed" });
    expect((await session.ended).exitCode).toBe(137);
  });
});

describe("the kubelet's image pulls", () => {
  const podOn = (name: string, image: string) => ({ metadata: { name }, spec: { nodeName: "worker-1", containers: [{ name: "agent", image, command: ["sleep", "infinity"] }] } });

  it("take the pull delay between Pulling and Pulled", async () => {
    sim = await startSimFixture({ imagePullMs: 5_000 });
    await sim.core.createNamespacedPod({ namespace: "default", body: podOn("first", "busybox:1.36") });
    await readyPod(sim, "first");
    const events = await eventsOf(sim, "first");
    const at = (reason: string) => new Date(events.find((event) => event.reason === reason)!.firstTimestamp!).getTime();
    expect(at("Pulled") - at("Pulling")).toBeGreaterThanOrEqual(5_000);
  });

  it("find the image already present for a second pod on the same node", async () => {
    sim = await startSimFixture({ imagePullMs: 5_000 });
    await sim.core.createNamespacedPod({ namespace: "default", body: podOn("first", "busybox:1.36") });
    await readyPod(sim, "first");
    await sim.core.createNamespacedPod({ namespace: "default", body: podOn("second", "busybox:1.36") });
    await readyPod(sim, "second");
    const pulls = (await eventsOf(sim, "second")).filter((event) => event.reason === "Pulling" || event.reason === "Pulled");
    expect(pulls.map((event) => [event.reason, event.message])).toEqual([["Pulled", 'Container image "busybox:1.36" already present on machine']]);
  });
});

describe("init containers", () => {
  const initialized = {
    metadata: { name: "initialized" },
    spec: {
      nodeName: "worker-1",
      initContainers: [{ name: "prepare", image: "busybox", command: ["sh", "-c", "echo ready > /work/marker"], volumeMounts: [{ name: "work", mountPath: "/work" }] }],
      containers: [{ name: "agent", image: "busybox", command: ["sleep", "infinity"], volumeMounts: [{ name: "work", mountPath: "/work" }] }],
      volumes: [{ name: "work", emptyDir: {} }],
    },
  };

  it("run to completion before the main container is created", async () => {
    sim = await startSimFixture();
    await sim.core.createNamespacedPod({ namespace: "default", body: initialized });
    await readyPod(sim, "initialized");
    const lifecycle = (await eventsOf(sim, "initialized")).filter((event) => event.reason === "Created" || event.reason === "Started").map((event) => event.message);
    expect(lifecycle).toEqual(["Created container: prepare", "Started container prepare", "Created container: agent", "Started container agent"]);
  });

  it("are reported Completed and the pod Initialized once the main container runs", async () => {
    sim = await startSimFixture();
    await sim.core.createNamespacedPod({ namespace: "default", body: initialized });
    const pod = await readyPod(sim, "initialized");
    expect([pod.status!.initContainerStatuses![0]!.state!.terminated!.reason, podCondition(pod, "Initialized")?.status]).toEqual(["Completed", "True"]);
  });

  it("leave what they wrote for the main container", async () => {
    sim = await startSimFixture();
    await sim.core.createNamespacedPod({ namespace: "default", body: initialized });
    await readyPod(sim, "initialized");
    expect((await execIn(sim.config, "default", "initialized", ["cat", "/work/marker"])).stdout).toBe("ready\n");
  });
});

describe("kubelet pressure eviction", () => {
  it("leaves the pod Failed/Evicted with DisruptionTarget/TerminationByKubelet", async () => {
    sim = await startSimFixture();
    await sim.core.createNamespacedPod({ namespace: "default", body: { metadata: { name: "pressed" }, spec: { containers: [{ name: "agent", image: "busybox", command: ["sleep", "infinity"] }] } } });
    await readyPod(sim, "pressed");
    await sim.fault("namespaces/default/pods/pressed/kubelet-evict", { resource: "memory" });
    const pod = await sim.core.readNamespacedPod({ namespace: "default", name: "pressed" });
    expect([pod.status!.phase, pod.status!.reason, podCondition(pod, "DisruptionTarget")?.reason]).toEqual(["Failed", "Evicted", "TerminationByKubelet"]);
  });
});

describe("the pod garbage collector", () => {
  it("force-deletes pods of a node that was deleted, marking them DeletionByPodGC", async () => {
    sim = await startSimFixture({ clockScale: 100 });
    const created = await sim.core.createNamespacedPod({ namespace: "default", body: { metadata: { name: "orphan" }, spec: { nodeName: "worker-2", containers: [{ name: "agent", image: "busybox", command: ["sleep", "infinity"] }] } } });
    let lastSeen: V1Pod | undefined;
    const watching = await new Watch(sim.config).watch(
      "/api/v1/namespaces/default/pods",
      { resourceVersion: created.metadata!.resourceVersion, fieldSelector: "metadata.name=orphan" },
      (type, pod: V1Pod) => {
        if (type === "DELETED") lastSeen = pod;
      },
      () => {},
    );
    await sim.core.deleteNode({ name: "worker-2" });
    await eventually(() => {
      if (!lastSeen) throw new Error("not deleted yet");
    });
    watching.abort();
    expect(podCondition(lastSeen!, "DisruptionTarget")?.reason).toBe("DeletionByPodGC");
  });
});

describe("events", () => {
  const reasonsFor = async (fixture: SimFixture, name: string) => (await eventsOf(fixture, name)).map((event) => event.reason);

  it("tell a pod's life as the scheduler and kubelet do, from Scheduled to Killing", async () => {
    sim = await startSimFixture({ imagePullMs: 50 });
    await sim.core.createNamespacedPod({ namespace: "default", body: { metadata: { name: "told" }, spec: { terminationGracePeriodSeconds: 1, containers: [{ name: "agent", image: "busybox:1.36", command: ["sleep", "infinity"] }] } } });
    await readyPod(sim, "told");
    await sim.core.deleteNamespacedPod({ namespace: "default", name: "told" });
    const reasons = await eventually(async () => {
      const seen = await reasonsFor(sim!, "told");
      if (!seen.includes("Killing")) throw new Error(`only ${seen.join(", ")}`);
      return seen;
    });
    expect(reasons).toEqual(["Scheduled", "Pulling", "Pulled", "Created", "Started", "Killing"]);
  });

  it("report a lost node NotReady, and Ready again when it returns", async () => {
    sim = await startSimFixture();
    const [node] = (await sim.core.listNode()).items;
    const name = node!.metadata!.name!;
    await sim.fault(`nodes/${name}/lose`);
    await eventually(async () => {
      if (!(await reasonsFor(sim!, name)).includes("NodeNotReady")) throw new Error("not reported yet");
    });
    await sim.fault(`nodes/${name}/restore`);
    const reasons = await eventually(async () => {
      const seen = await reasonsFor(sim!, name);
      if (!seen.includes("NodeReady")) throw new Error("not reported yet");
      return seen;
    });
    expect(reasons.filter((reason) => reason === "NodeNotReady" || reason === "NodeReady")).toEqual(["NodeNotReady", "NodeReady"]);
  });

  it("expire an hour after they were last seen", async () => {
    sim = await startSimFixture({ clockScale: 3_000 });
    await sim.core.createNamespacedPod({ namespace: "default", body: { metadata: { name: "chatty" }, spec: { containers: [{ name: "agent", image: "busybox", command: ["sleep", "infinity"] }] } } });
    await eventually(async () => {
      const list = await sim!.core.listNamespacedEvent({ namespace: "default", fieldSelector: "involvedObject.name=chatty" });
      if (list.items.length === 0) throw new Error("no events yet");
    });
    await eventually(async () => {
      const list = await sim!.core.listNamespacedEvent({ namespace: "default", fieldSelector: "involvedObject.name=chatty" });
      if (list.items.length > 0) throw new Error("not expired yet");
    }, { timeoutMs: 5_000 });
  });
});

describe("volume snapshots", () => {
  it("become ready on a snapshot-capable class and restore their contents into a new claim", async () => {
    sim = await startSimFixture({ defaultStorageClass: "portable" });
    await sim.custom.createNamespacedCustomObject({ ...sandboxes, body: aSandbox({ name: "source" }) });
    await readyPod(sim, "source");
    await execIn(sim.config, "default", "source", ["sh", "-c", "echo snap > /sandbox/state.txt"]);
    await sim.custom.createNamespacedCustomObject({
      group: "snapshot.storage.k8s.io", version: "v1", namespace: "default", plural: "volumesnapshots",
      body: { apiVersion: "snapshot.storage.k8s.io/v1", kind: "VolumeSnapshot", metadata: { name: "source-snap" }, spec: { source: { persistentVolumeClaimName: "workspace-source" } } },
    });
    await eventually(async () => {
      const snapshot = (await sim!.custom.getNamespacedCustomObject({ group: "snapshot.storage.k8s.io", version: "v1", namespace: "default", plural: "volumesnapshots", name: "source-snap" })) as { status?: { readyToUse?: boolean } };
      if (!snapshot.status?.readyToUse) throw new Error("not ready");
    });
    await sim.core.createNamespacedPersistentVolumeClaim({ namespace: "default", body: { metadata: { name: "restored" }, spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "2Gi" } }, dataSource: { apiGroup: "snapshot.storage.k8s.io", kind: "VolumeSnapshot", name: "source-snap" } } } });
    await sim.core.createNamespacedPod({ namespace: "default", body: { metadata: { name: "reader" }, spec: { containers: [{ name: "agent", image: "busybox", command: ["sleep", "infinity"], volumeMounts: [{ name: "data", mountPath: "/data" }] }], volumes: [{ name: "data", persistentVolumeClaim: { claimName: "restored" } }] } } });
    await readyPod(sim, "reader");
    expect((await execIn(sim.config, "default", "reader", ["cat", "/data/state.txt"])).stdout).toBe("snap\n");
  });

  it("report an error at once when the claim's driver cannot snapshot", async () => {
    sim = await startSimFixture();
    await sim.custom.createNamespacedCustomObject({ ...sandboxes, body: aSandbox({ name: "pinned" }) });
    await readyPod(sim, "pinned");
    await sim.custom.createNamespacedCustomObject({
      group: "snapshot.storage.k8s.io", version: "v1", namespace: "default", plural: "volumesnapshots",
      body: { apiVersion: "snapshot.storage.k8s.io/v1", kind: "VolumeSnapshot", metadata: { name: "pinned-snap" }, spec: { source: { persistentVolumeClaimName: "workspace-pinned" } } },
    });
    const snapshot = await eventually(async () => {
      const read = (await sim!.custom.getNamespacedCustomObject({ group: "snapshot.storage.k8s.io", version: "v1", namespace: "default", plural: "volumesnapshots", name: "pinned-snap" })) as { status?: { error?: { message: string } } };
      if (!read.status?.error) throw new Error("no error yet");
      return read;
    }, { timeoutMs: 3_000 });
    expect(snapshot.status!.error!.message).toMatch(/snapshot/i);
  });
});

describe("objects as the API server stores them", () => {
  it("a pod gets the container defaults and the QoS class its resources give", async () => {
    sim = await startSimFixture();
    const pod = await sim.core.createNamespacedPod({
      namespace: "default",
      body: { metadata: { name: "defaulted" }, spec: { containers: [{ name: "agent", image: "busybox:1.37", resources: { requests: { cpu: "1", memory: "1Gi" }, limits: { cpu: "1000m", memory: "1Gi" } } }] } },
    });
    const container = pod.spec!.containers[0]!;
    expect([container.imagePullPolicy, container.terminationMessagePath, container.terminationMessagePolicy, pod.spec?.serviceAccountName, pod.spec?.enableServiceLinks, pod.status?.qosClass])
      .toEqual(["IfNotPresent", "/dev/termination-log", "File", "default", true, "Guaranteed"]);
  });

  it("claims are defaulted to volumeMode Filesystem and carry no generation", async () => {
    sim = await startSimFixture();
    const claim = await sim.core.createNamespacedPersistentVolumeClaim({ namespace: "default", body: { metadata: { name: "plain" }, spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } } } });
    expect([claim.spec?.volumeMode, claim.metadata?.generation]).toEqual(["Filesystem", undefined]);
  });
});

describe("provisioning failures", () => {
  it("surface as ProvisioningFailed on the claim and clear when the fault is lifted", async () => {
    sim = await startSimFixture({ defaultStorageClass: "portable" });
    await sim.fault("storageclasses/portable/fail-provisioning", { message: "quota exceeded" });
    await sim.core.createNamespacedPersistentVolumeClaim({ namespace: "default", body: { metadata: { name: "unlucky" }, spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } } } });
    const failure = await eventually(async () => {
      const list = await sim!.core.listNamespacedEvent({ namespace: "default", fieldSelector: "involvedObject.name=unlucky,reason=ProvisioningFailed" });
      if (list.items.length === 0) throw new Error("no failure yet");
      return list.items[0]!;
    });
    await sim.fault("storageclasses/portable/fail-provisioning", { message: null });
    await eventually(async () => {
      const claim = await sim!.core.readNamespacedPersistentVolumeClaim({ namespace: "default", name: "unlucky" });
      if (claim.status?.phase !== "Bound") throw new Error("not bound");
    });
    expect(failure.message).toBe('failed to provision volume with StorageClass "portable": quota exceeded');
  });
});

describe("container logs", () => {
  it("serve what the container printed", async () => {
    sim = await startSimFixture();
    await sim.core.createNamespacedPod({ namespace: "default", body: { metadata: { name: "talker" }, spec: { containers: [{ name: "agent", image: "busybox", command: ["sh", "-c", "echo hello from the agent; sleep infinity"] }] } } });
    await readyPod(sim, "talker");
    const log = await eventually(async () => {
      const text = await sim!.core.readNamespacedPodLog({ namespace: "default", name: "talker" });
      if (!text) throw new Error("no log yet");
      return text;
    });
    expect(log).toBe("hello from the agent\n");
  });
});

describe("the kubelet's volume stats", () => {
  interface VolumeStats { name: string; usedBytes: number; capacityBytes: number; availableBytes: number; pvcRef?: { name: string; namespace: string } }
  interface Summary { pods: { podRef: { name: string }; volume: VolumeStats[] }[] }

  async function summaryOf(fixture: SimFixture, nodeName: string): Promise<Summary> {
    const answer: unknown = await fixture.core.connectGetNodeProxyWithPath({ name: nodeName, path: "stats/summary" });
    return (typeof answer === "string" ? JSON.parse(answer) : answer) as Summary;
  }

  async function workspaceStats(fixture: SimFixture, podName: string): Promise<VolumeStats> {
    const pod = await readyPod(fixture, podName);
    const summary = await summaryOf(fixture, pod.spec!.nodeName!);
    return summary.pods.find((one) => one.podRef.name === podName)!.volume.find((one) => one.pvcRef?.name === `workspace-${podName}`)!;
  }

  it("count a claim's files in whole 4 KiB blocks against its volume's capacity", async () => {
    sim = await startSimFixture();
    await sim.custom.createNamespacedCustomObject({ ...sandboxes, body: aSandbox({ name: "counted" }) });
    await readyPod(sim, "counted");
    const before = await workspaceStats(sim, "counted");
    await execIn(sim.config, "default", "counted", ["sh", "-c", "mkdir /sandbox/notes && echo hello > /sandbox/notes/one.txt"]);
    const after = await workspaceStats(sim, "counted");
    expect({ grew: after.usedBytes - before.usedBytes, capacity: after.capacityBytes, free: after.availableBytes }).toEqual({ grew: 2 * 4096, capacity: 2 * 1024 ** 3, free: 2 * 1024 ** 3 - after.usedBytes });
  });

  it("are not reachable on a node whose kubelet is down", async () => {
    sim = await startSimFixture();
    await sim.custom.createNamespacedCustomObject({ ...sandboxes, body: aSandbox({ name: "stranded" }) });
    const nodeName = (await readyPod(sim, "stranded")).spec!.nodeName!;
    await sim.fault(`nodes/${nodeName}/lose`);
    expect(await status(summaryOf(sim, nodeName))).toBe(503);
  });
});
