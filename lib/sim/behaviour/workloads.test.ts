import { ApiException, AppsV1Api, type V1Deployment } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../testing/eventually.ts";
import { startSimFixture, type SimFixture } from "../testing/sim-fixture.ts";

// apps/v1 on the embedded cluster: a Deployment's ReplicaSet keeps its pods running, a new
// template rolls out through a new ReplicaSet, /scale sets the count, and the pods go with it.

let sim: SimFixture;
let apps: AppsV1Api;
beforeAll(async () => {
  sim = await startSimFixture();
  apps = sim.config.makeApiClient(AppsV1Api);
});
afterAll(() => sim.cluster.stop());

let counter = 0;
function aDeployment(overrides: { replicas?: number; image?: string; strategy?: "Recreate" } = {}): V1Deployment {
  const name = `web-${++counter}`;
  return {
    metadata: { name },
    spec: {
      replicas: overrides.replicas ?? 2,
      selector: { matchLabels: { app: name } },
      ...(overrides.strategy ? { strategy: { type: overrides.strategy } } : {}),
      template: { metadata: { labels: { app: name } }, spec: { terminationGracePeriodSeconds: 0, containers: [{ name: "web", image: overrides.image ?? "nginx:1.27" }] } },
    },
  };
}

/** The Deployment once it reports every replica updated and available for its current generation. */
async function rolledOut(name: string): Promise<V1Deployment> {
  return eventually(async () => {
    const deployment = await apps.readNamespacedDeployment({ namespace: "default", name });
    const { status, spec, metadata } = deployment;
    if (status?.observedGeneration !== metadata?.generation || status?.updatedReplicas !== spec?.replicas || status?.availableReplicas !== spec?.replicas || (status?.replicas ?? 0) !== spec?.replicas) {
      throw new Error(`not rolled out: ${JSON.stringify(status)}`);
    }
    return deployment;
  });
}

const podsOf = async (app: string) => (await sim.core.listNamespacedPod({ namespace: "default", labelSelector: `app=${app}` })).items.filter((pod) => !pod.metadata?.deletionTimestamp);
const replicaSetsOf = async (app: string) => (await apps.listNamespacedReplicaSet({ namespace: "default", labelSelector: `app=${app}` })).items;

describe("a Deployment", () => {
  it("runs its replicas as pods of one ReplicaSet, Available", async () => {
    const { metadata } = await apps.createNamespacedDeployment({ namespace: "default", body: aDeployment() });
    const deployment = await rolledOut(metadata!.name!);
    const pods = await podsOf(metadata!.name!);
    expect([pods.length, pods.every((pod) => pod.status?.phase === "Running"), deployment.status?.conditions?.find((condition) => condition.type === "Available")?.status]).toEqual([2, true, "True"]);
  });

  it("names its ReplicaSet after the template's hash, which labels the pods", async () => {
    const { metadata } = await apps.createNamespacedDeployment({ namespace: "default", body: aDeployment() });
    await rolledOut(metadata!.name!);
    const [replicaSet] = await replicaSetsOf(metadata!.name!);
    const hash = replicaSet!.metadata!.labels!["pod-template-hash"];
    expect([replicaSet!.metadata!.name, (await podsOf(metadata!.name!)).every((pod) => pod.metadata?.labels?.["pod-template-hash"] === hash)]).toEqual([`${metadata!.name}-${hash}`, true]);
  });

  it("rolls a new template out through a new ReplicaSet, the old one scaled to nothing", async () => {
    const { metadata } = await apps.createNamespacedDeployment({ namespace: "default", body: aDeployment({ replicas: 3 }) });
    const name = metadata!.name!;
    await rolledOut(name);
    await apps.patchNamespacedDeployment({ namespace: "default", name, body: [{ op: "replace", path: "/spec/template/spec/containers/0/image", value: "nginx:1.28" }] });
    const deployment = await rolledOut(name);
    const replicas = (await replicaSetsOf(name)).map((replicaSet) => [replicaSet.spec?.template?.spec?.containers[0]?.image, replicaSet.spec?.replicas]).sort();
    expect([replicas, deployment.metadata?.annotations?.["deployment.kubernetes.io/revision"]]).toEqual([[["nginx:1.27", 0], ["nginx:1.28", 3]], "2"]);
  });

  it("takes its old pods away first when its strategy is Recreate", async () => {
    const { metadata } = await apps.createNamespacedDeployment({ namespace: "default", body: aDeployment({ strategy: "Recreate" }) });
    const name = metadata!.name!;
    await rolledOut(name);
    await apps.patchNamespacedDeployment({ namespace: "default", name, body: [{ op: "replace", path: "/spec/template/spec/containers/0/image", value: "nginx:1.28" }] });
    await rolledOut(name);
    const images = (await podsOf(name)).map((pod) => pod.spec?.containers[0]?.image);
    expect(images).toEqual(["nginx:1.28", "nginx:1.28"]);
  });

  it("is scaled through its scale subresource", async () => {
    const { metadata } = await apps.createNamespacedDeployment({ namespace: "default", body: aDeployment() });
    const name = metadata!.name!;
    await rolledOut(name);
    await apps.replaceNamespacedDeploymentScale({ namespace: "default", name, body: { metadata: { name, namespace: "default" }, spec: { replicas: 4 } } });
    await rolledOut(name);
    expect((await apps.readNamespacedDeploymentScale({ namespace: "default", name })).status).toEqual({ replicas: 4, selector: `app=${name}` });
  });

  it("refuses a selector that does not pick its template's pods, naming the labels", async () => {
    const body = aDeployment();
    body.spec!.selector = { matchLabels: { app: "someone-else" } };
    const refused = await apps.createNamespacedDeployment({ namespace: "default", body }).catch((error: ApiException<string>) => error);
    expect([(refused as ApiException<string>).code, String((refused as ApiException<string>).body)]).toEqual([422, expect.stringContaining("`selector` does not match template `labels`")]);
  });

  it("takes its ReplicaSets and pods with it when deleted", async () => {
    const { metadata } = await apps.createNamespacedDeployment({ namespace: "default", body: aDeployment() });
    const name = metadata!.name!;
    await rolledOut(name);
    await apps.deleteNamespacedDeployment({ namespace: "default", name });
    await eventually(async () => {
      if ((await replicaSetsOf(name)).length + (await podsOf(name)).length > 0) throw new Error("still there");
    });
  });
});

describe("a ReplicaSet", () => {
  it("replaces a pod that was deleted", async () => {
    const { metadata } = await apps.createNamespacedDeployment({ namespace: "default", body: aDeployment() });
    const name = metadata!.name!;
    await rolledOut(name);
    const [first] = await podsOf(name);
    await sim.core.deleteNamespacedPod({ namespace: "default", name: first!.metadata!.name! });
    const pods = await eventually(async () => {
      const now = await podsOf(name);
      if (now.length !== 2 || now.some((pod) => pod.metadata?.uid === first!.metadata!.uid)) throw new Error("not replaced yet");
      return now;
    });
    expect(pods.length).toBe(2);
  });
});
