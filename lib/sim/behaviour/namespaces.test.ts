import { ApiException } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../testing/eventually.ts";
import { aSandbox, startSimFixture, type SimFixture } from "../testing/sim-fixture.ts";

// Deleting a namespace: Terminating while its content goes, refusing new content, then gone.

let sim: SimFixture;
beforeAll(async () => {
  sim = await startSimFixture();
});
afterAll(() => sim.cluster.stop());

async function namespaceWithRunningSandbox(namespace: string): Promise<void> {
  await sim.core.createNamespace({ body: { metadata: { name: namespace } } });
  await sim.custom.createNamespacedCustomObject({ group: "agents.x-k8s.io", version: "v1beta1", namespace, plural: "sandboxes", body: aSandbox({ name: "doomed", namespace }) });
  await eventually(async () => {
    const pod = await sim.core.readNamespacedPod({ namespace, name: "doomed" });
    if (pod.status?.phase !== "Running") throw new Error("not running");
  });
}

describe("deleting a namespace", () => {
  it("leaves it Terminating while its sandbox's pod is still stopping", async () => {
    await namespaceWithRunningSandbox("team-a");
    await sim.core.deleteNamespace({ name: "team-a" });
    const namespace = await sim.core.readNamespace({ name: "team-a" });
    expect([namespace.status?.phase, Boolean(namespace.metadata?.deletionTimestamp)]).toEqual(["Terminating", true]);
  });

  it("refuses new pods in it with 403", async () => {
    await namespaceWithRunningSandbox("team-b");
    await sim.core.deleteNamespace({ name: "team-b" });
    const code = await sim.core
      .createNamespacedPod({ namespace: "team-b", body: { metadata: { name: "late" }, spec: { containers: [{ name: "c", image: "busybox" }] } } })
      .then(() => 0, (error: ApiException<unknown>) => error.code);
    expect(code).toBe(403);
  });

  it("removes it once everything in it is gone", async () => {
    await namespaceWithRunningSandbox("team-c");
    await sim.core.deleteNamespace({ name: "team-c" });
    await eventually(async () => {
      const code = await sim.core.readNamespace({ name: "team-c" }).then(() => 200, (error: ApiException<unknown>) => error.code);
      if (code !== 404) throw new Error("namespace still there");
    }, { timeoutMs: 15_000 });
    const pods = await sim.core.listPodForAllNamespaces({ fieldSelector: "metadata.namespace=team-c" });
    expect(pods.items).toHaveLength(0);
  });
});
