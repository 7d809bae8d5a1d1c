import { ApiException, PatchStrategy, setHeaderOptions, type V1Pod } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, eventuallyGone } from "../testing/eventually.ts";
import { execIn } from "../testing/exec.ts";
import { aSandbox, startSimFixture, type SimFixture } from "../testing/sim-fixture.ts";

// k8s-behaviour.md, "agent-sandbox Sandbox": what the controller does with a Sandbox, checked
// through @kubernetes/client-node against the simulated cluster.

let sim: SimFixture;
beforeAll(async () => {
  sim = await startSimFixture();
});
afterAll(() => sim.cluster.stop());

const sandboxes = { group: "agents.x-k8s.io", version: "v1beta1", namespace: "default", plural: "sandboxes" };
type Sandbox = ReturnType<typeof aSandbox> & { status?: { conditions?: { type: string; status: string; reason: string }[] }; metadata: { uid?: string } };

async function createSandbox(name: string, options: Partial<Parameters<typeof aSandbox>[0]> = {}): Promise<Sandbox> {
  return (await sim.custom.createNamespacedCustomObject({ ...sandboxes, body: aSandbox({ name, ...options }) })) as Sandbox;
}

async function readSandbox(name: string): Promise<Sandbox> {
  return (await sim.custom.getNamespacedCustomObject({ ...sandboxes, name })) as Sandbox;
}

const condition = (sandbox: Sandbox, type: string) => sandbox.status?.conditions?.find((one) => one.type === type);

async function readyPod(name: string): Promise<V1Pod> {
  return eventually(async () => {
    const pod = await sim.core.readNamespacedPod({ namespace: "default", name });
    if (!pod.status?.conditions?.some((one) => one.type === "Ready" && one.status === "True")) throw new Error(`pod ${name} is not Ready: ${pod.status?.phase}`);
    return pod;
  });
}


describe("a Sandbox", () => {
  it("gets a pod named after it, owned by it and labelled with the name hash", async () => {
    const sandbox = await createSandbox("box-pod");
    const pod = await eventually(() => sim.core.readNamespacedPod({ namespace: "default", name: "box-pod" }));
    // FNV-1a 32 of "box-pod", computed independently.
    expect([pod.metadata!.ownerReferences![0]!.uid, pod.metadata!.ownerReferences![0]!.controller, pod.metadata!.labels!["agents.x-k8s.io/sandbox-name-hash"]])
      .toEqual([sandbox.metadata.uid, true, "501166d4"]);
  });

  it("gets a claim per template named <template>-<sandbox>", async () => {
    await createSandbox("box-claim");
    const claim = await eventually(() => sim.core.readNamespacedPersistentVolumeClaim({ namespace: "default", name: "workspace-box-claim" }));
    expect(claim.metadata!.ownerReferences![0]!.kind).toBe("Sandbox");
  });

  it("becomes Ready when its pod is Ready", async () => {
    await createSandbox("box-ready");
    await readyPod("box-ready");
    const sandbox = await eventually(async () => {
      const read = await readSandbox("box-ready");
      if (condition(read, "Ready")?.status !== "True") throw new Error("not ready");
      return read;
    });
    expect(condition(sandbox, "Ready")?.reason).toBe("DependenciesReady");
  });

  it("while Running has the status agent-sandbox v0.5.6 writes: Suspended=False, PodScheduled, Ready (with observedGeneration), selector, podIPs, nodeName, no Service", async () => {
    await createSandbox("box-status", { labels: { "berth.dev/sandbox-id": "id-1" } });
    const pod = await readyPod("box-status");
    const sandbox = await eventually(async () => {
      const read = await readSandbox("box-status");
      if (condition(read, "Ready")?.status !== "True") throw new Error("not ready");
      return read;
    });
    expect(sandbox.status).toEqual({
      conditions: [
        { type: "Suspended", status: "False", observedGeneration: 1, reason: "NotSuspended", message: "Sandbox is not suspended", lastTransitionTime: expect.any(String) },
        { type: "PodScheduled", status: "True", observedGeneration: 1, reason: "PodScheduled", message: "", lastTransitionTime: expect.any(String) },
        { type: "Ready", status: "True", observedGeneration: 1, reason: "DependenciesReady", message: "Pod is Ready", lastTransitionTime: expect.any(String) },
      ],
      selector: "agents.x-k8s.io/sandbox-name-hash=235aec37",
      podIPs: [pod.status!.podIP],
      nodeName: pod.spec!.nodeName,
    });
    expect(sandbox.metadata).toMatchObject({ annotations: { "agents.x-k8s.io/pod-name": "box-status" } });
    expect(pod.metadata!.annotations).toEqual({ "agents.x-k8s.io/propagated-labels": "app,berth.dev/sandbox-id" });
    await expect(sim.core.readNamespacedService({ namespace: "default", name: "box-status" })).rejects.toMatchObject({ code: 404 });
  });

  it("with spec.service: true gets a headless Service, named in its status", async () => {
    const body = aSandbox({ name: "box-service" });
    await sim.custom.createNamespacedCustomObject({ ...sandboxes, body: { ...body, spec: { ...body.spec, service: true } } });
    const service = await eventually(() => sim.core.readNamespacedService({ namespace: "default", name: "box-service" }));
    expect([service.spec!.clusterIP, service.spec!.selector, service.metadata!.ownerReferences![0]!.kind]).toEqual(["None", { "agents.x-k8s.io/sandbox-name-hash": "89ba118c" }, "Sandbox"]);
    await readyPod("box-service");
    const sandbox = await eventually(async () => {
      const read = (await readSandbox("box-service")) as Sandbox & { status?: { service?: string; serviceFQDN?: string; conditions?: { message?: string }[] } };
      if (condition(read, "Ready")?.status !== "True") throw new Error("not ready");
      return read;
    });
    expect([sandbox.status?.service, sandbox.status?.serviceFQDN, (condition(sandbox, "Ready") as { message?: string }).message]).toEqual([
      "box-service", "box-service.default.svc.cluster.local", "Pod is Ready; Service Exists",
    ]);
  });

  it("seeds its workspace from the image once, through the workspace-init container", async () => {
    const sandbox = aSandbox({ name: "box-seed" });
    const initScript = "if [ ! -f /mnt/berth-workspace/.workspace-initialized ]; then if [ -d /sandbox ]; then tar -C /sandbox -cf - . | tar -C /mnt/berth-workspace -xpf -; fi && touch /mnt/berth-workspace/.workspace-initialized; fi";
    Object.assign(sandbox.spec.podTemplate.spec, {
      initContainers: [{ name: "workspace-init", image: sandbox.spec.podTemplate.spec.containers[0]!.image, command: ["sh", "-c", initScript], volumeMounts: [{ name: "workspace", mountPath: "/mnt/berth-workspace" }] }],
    });
    await sim.custom.createNamespacedCustomObject({ ...sandboxes, body: sandbox });
    await readyPod("box-seed");
    const listing = await execIn(sim.config, "default", "box-seed", ["ls", "-a", "/sandbox"]);
    expect(listing.stdout.split("\n")).toEqual(expect.arrayContaining(["README.md", ".workspace-initialized"]));
  });

  it("gets its deleted pod back with the same name and a new uid", async () => {
    await createSandbox("box-recreate");
    const first = await readyPod("box-recreate");
    await sim.core.deleteNamespacedPod({ namespace: "default", name: "box-recreate", gracePeriodSeconds: 0 });
    const second = await eventually(async () => {
      const pod = await sim.core.readNamespacedPod({ namespace: "default", name: "box-recreate" });
      if (pod.metadata!.uid === first.metadata!.uid) throw new Error("same pod");
      return pod;
    });
    expect(second.metadata!.name).toBe("box-recreate");
  });

  it("keeps workspace files on its claim across a pod replacement, but not /tmp", async () => {
    await createSandbox("box-durable");
    const first = await readyPod("box-durable");
    await execIn(sim.config, "default", "box-durable", ["sh", "-c", "echo kept > /sandbox/notes.txt && echo lost > /tmp/scratch.txt"]);
    await sim.core.deleteNamespacedPod({ namespace: "default", name: "box-durable", gracePeriodSeconds: 0 });
    await eventually(async () => {
      const pod = await readyPod("box-durable");
      if (pod.metadata!.uid === first.metadata!.uid) throw new Error("same pod");
    });
    const kept = await execIn(sim.config, "default", "box-durable", ["cat", "/sandbox/notes.txt"]);
    const lost = await execIn(sim.config, "default", "box-durable", ["sh", "-c", "test -f /tmp/scratch.txt"]);
    expect([kept.stdout.trim(), lost.exitCode]).toEqual(["kept", 1]);
  });

  it("is not given a new pod when its pod ended Failed (kubelet eviction)", async () => {
    await createSandbox("box-failed");
    const pod = await readyPod("box-failed");
    await sim.fault("namespaces/default/pods/box-failed/kubelet-evict", { resource: "memory" });
    const sandbox = await eventually(async () => {
      const read = await readSandbox("box-failed");
      if (condition(read, "Finished")?.status !== "True") throw new Error("not finished");
      return read;
    });
    const after = await sim.core.readNamespacedPod({ namespace: "default", name: "box-failed" });
    expect([condition(sandbox, "Ready")?.reason, after.metadata!.uid, after.status!.phase, after.status!.reason]).toEqual(["PodFailed", pod.metadata!.uid, "Failed", "Evicted"]);
  });

  it("loses its pod but keeps its claim when suspended, and says Suspended from the start", async () => {
    await createSandbox("box-suspend");
    await readyPod("box-suspend");
    await sim.custom.patchNamespacedCustomObject({ ...sandboxes, name: "box-suspend", body: { spec: { operatingMode: "Suspended" } } }, setHeaderOptions("Content-Type", PatchStrategy.MergePatch));
    const suspended = await eventually(async () => {
      const read = await readSandbox("box-suspend");
      if (condition(read, "Suspended")?.status !== "True") throw new Error("not suspended yet");
      return read;
    });
    expect([condition(suspended, "Suspended")?.reason, condition(suspended, "Ready")?.reason]).toEqual(["PodTerminated", "SandboxSuspended"]);
    await eventuallyGone(() => sim.core.readNamespacedPod({ namespace: "default", name: "box-suspend" }));
    const claim = await sim.core.readNamespacedPersistentVolumeClaim({ namespace: "default", name: "workspace-box-suspend" });
    expect(claim.status!.phase).toBe("Bound");
  });

  it("comes back with its workspace files when resumed", async () => {
    await createSandbox("box-resume");
    await readyPod("box-resume");
    await execIn(sim.config, "default", "box-resume", ["sh", "-c", "echo before > /sandbox/kept.txt"]);
    const patch = (operatingMode: string) =>
      sim.custom.patchNamespacedCustomObject({ ...sandboxes, name: "box-resume", body: { spec: { operatingMode } } }, setHeaderOptions("Content-Type", PatchStrategy.MergePatch));
    await patch("Suspended");
    await eventuallyGone(() => sim.core.readNamespacedPod({ namespace: "default", name: "box-resume" }));
    await patch("Running");
    await readyPod("box-resume");
    expect((await execIn(sim.config, "default", "box-resume", ["cat", "/sandbox/kept.txt"])).stdout).toBe("before\n");
  });

  it("with an emptyDir workspace starts every new pod with an empty workspace", async () => {
    await createSandbox("box-ephemeral", { volumeClaimTemplates: [], volumes: [{ name: "workspace", emptyDir: {} }] });
    const first = await readyPod("box-ephemeral");
    await execIn(sim.config, "default", "box-ephemeral", ["sh", "-c", "echo gone > /sandbox/lost.txt"]);
    await sim.core.deleteNamespacedPod({ namespace: "default", name: "box-ephemeral", gracePeriodSeconds: 0 });
    await eventually(async () => {
      const pod = await readyPod("box-ephemeral");
      if (pod.metadata!.uid === first.metadata!.uid) throw new Error("same pod");
    });
    expect((await execIn(sim.config, "default", "box-ephemeral", ["sh", "-c", "test -e /sandbox/lost.txt"])).exitCode).toBe(1);
  });

  it("suspended through v1alpha1 with replicas: 0 loses its pod, keeps its claim, and is back with replicas: 1", async () => {
    await createSandbox("box-replicas");
    const first = await readyPod("box-replicas");
    const scale = (replicas: number) =>
      sim.custom.patchNamespacedCustomObject({ ...sandboxes, version: "v1alpha1", name: "box-replicas", body: { spec: { replicas } } }, setHeaderOptions("Content-Type", PatchStrategy.MergePatch));
    await scale(0);
    await eventuallyGone(() => sim.core.readNamespacedPod({ namespace: "default", name: "box-replicas" }));
    const claimWhileSuspended = await sim.core.readNamespacedPersistentVolumeClaim({ namespace: "default", name: "workspace-box-replicas" });
    await scale(1);
    const back = await readyPod("box-replicas");
    expect([claimWhileSuspended.status!.phase, back.metadata!.uid !== first.metadata!.uid]).toEqual(["Bound", true]);
  });

  it("mounts its template claim in place of a pod volume of the same name", async () => {
    await createSandbox("box-replaced", { volumes: [{ name: "workspace", emptyDir: {} }] });
    const pod = await readyPod("box-replaced");
    expect(pod.spec!.volumes!.filter((volume) => volume.name === "workspace")).toEqual([{ name: "workspace", persistentVolumeClaim: { claimName: "workspace-box-replaced" } }]);
  });

  it("takes its pod and claims with it when deleted", async () => {
    await createSandbox("box-delete");
    await readyPod("box-delete");
    await sim.custom.deleteNamespacedCustomObject({ ...sandboxes, name: "box-delete" });
    await eventuallyGone(() => sim.core.readNamespacedPod({ namespace: "default", name: "box-delete" }));
    await eventuallyGone(() => sim.core.readNamespacedPersistentVolumeClaim({ namespace: "default", name: "workspace-box-delete" }));
  });
});

describe("a Sandbox the API server refuses", () => {
  it("without spec.podTemplate is a 422 whose cause names the field", async () => {
    const { podTemplate: _dropped, ...spec } = aSandbox({ name: "box-templateless" }).spec;
    const failure = await failureOf(sim.custom.createNamespacedCustomObject({ ...sandboxes, body: { ...aSandbox({ name: "box-templateless" }), spec } }));
    expect([failure.code, failure.causes]).toEqual([422, expect.arrayContaining([{ reason: "FieldValueRequired", field: "spec.podTemplate", message: "Required value" }])]);
  });

  it("changing its volumeClaimTemplates is a 422 with the CRD's message", async () => {
    await createSandbox("box-immutable");
    const failure = await failureOf(
      sim.custom.patchNamespacedCustomObject(
        { ...sandboxes, name: "box-immutable", body: { spec: { volumeClaimTemplates: [{ metadata: { name: "other" }, spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } } }] } } },
        setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
      ),
    );
    expect([failure.code, failure.causes]).toEqual([422, [{ reason: "FieldValueInvalid", field: "spec", message: 'Invalid value: "object": volumeClaimTemplates is immutable' }]]);
  });
});

/** The code and Status causes of a refused call. */
async function failureOf(call: Promise<unknown>): Promise<{ code: number; causes: unknown[] }> {
  try {
    await call;
  } catch (error) {
    if (!(error instanceof ApiException)) throw error;
    const body = JSON.parse(String(error.body)) as { details?: { causes?: unknown[] } };
    return { code: error.code, causes: body.details?.causes ?? [] };
  }
  throw new Error("expected the call to be refused");
}
