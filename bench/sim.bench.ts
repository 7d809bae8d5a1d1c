// The simulated API server at 10,000 sandboxes: each with its Sandbox, pod, claim and volume,
// written straight into the store (a fixed workload, no controllers), then read and watched
// through @kubernetes/client-node as the product would.
import { accessForTests } from "../lib/sim/testing/access-for-tests.ts";
import { CoreV1Api, CustomObjectsApi, Watch } from "@kubernetes/client-node";
import { ApiServer } from "../lib/sim/api/api-server.ts";
import { ManualClock } from "../lib/sim/clock.ts";
import { refs } from "../lib/sim/k8s-objects.ts";
import { ObjectStore } from "../lib/sim/store/object-store.ts";
import { kubeConfigFor } from "../lib/sim/testing/kube-client.ts";
import { measure, type Measurement } from "./measure.ts";

export const SANDBOXES = 10_000;
export const WATCHERS = 50;
export const WATCHED_CHANGES = 200;

function seed(store: ObjectStore): void {
  store.create(refs.namespaces, { apiVersion: "v1", kind: "Namespace", metadata: { name: "default" } });
  for (let i = 0; i < SANDBOXES; i++) {
    const name = `box-${String(i).padStart(5, "0")}`;
    const node = `worker-${(i % 3) + 1}`;
    const labels = { "agents.x-k8s.io/sandbox-name-hash": i.toString(16).padStart(8, "0"), "berth.dev/managed-by": "berth" };
    store.create(refs.sandboxes, {
      apiVersion: "agents.x-k8s.io/v1beta1", kind: "Sandbox", metadata: { name, namespace: "default", labels },
      spec: { operatingMode: "Running", podTemplate: { spec: { containers: [{ name: "agent", image: "ghcr.io/nvidia/openshell-community/sandboxes/base:latest" }] } }, volumeClaimTemplates: [{ metadata: { name: "workspace" }, spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "2Gi" } } } }] },
      status: { conditions: [{ type: "Ready", status: "True", reason: "DependenciesReady", lastTransitionTime: "2026-11-30T00:00:00Z" }], nodeName: node },
    });
    store.create(refs.pods, {
      apiVersion: "v1", kind: "Pod", metadata: { name, namespace: "default", labels },
      spec: { nodeName: node, containers: [{ name: "agent", image: "ghcr.io/nvidia/openshell-community/sandboxes/base:latest", volumeMounts: [{ name: "workspace", mountPath: "/sandbox" }] }], volumes: [{ name: "workspace", persistentVolumeClaim: { claimName: `workspace-${name}` } }] },
      status: { phase: "Running", podIP: `10.244.${i % 3}.${i % 250}`, conditions: [{ type: "Ready", status: "True" }] },
    });
    store.create(refs.claims, {
      apiVersion: "v1", kind: "PersistentVolumeClaim", metadata: { name: `workspace-${name}`, namespace: "default", labels },
      spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "2Gi" } }, storageClassName: "local-path", volumeName: `pvc-${i}` },
      status: { phase: "Bound", capacity: { storage: "2Gi" } },
    });
    store.create(refs.volumes, {
      apiVersion: "v1", kind: "PersistentVolume", metadata: { name: `pvc-${i}` },
      spec: { capacity: { storage: "2Gi" }, accessModes: ["ReadWriteOnce"], storageClassName: "local-path", claimRef: { namespace: "default", name: `workspace-${name}` }, nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: "kubernetes.io/hostname", operator: "In", values: [node] }] }] } } },
      status: { phase: "Bound" },
    });
  }
}

export interface SimBenchResult {
  seedMs: number;
  heapMiB: number;
  rssMiB: number;
  measurements: Measurement[];
  fanOut: { watchers: number; changes: number; deliveredEvents: number; allDeliveredMs: number; eventsPerSecond: number };
}

export async function benchSimulatedCluster(): Promise<SimBenchResult> {
  globalThis.gc?.();
  const before = process.memoryUsage();
  const clock = new ManualClock();
  const store = new ObjectStore(clock);
  const seedBegan = performance.now();
  seed(store);
  const seedMs = performance.now() - seedBegan;
  globalThis.gc?.();
  const after = process.memoryUsage();
  const { access, adminToken } = accessForTests(store, clock);
  const server = new ApiServer({ store, access, pods: { evict: () => ({}), bind: () => ({}), log: () => "", exec: (_r, socket) => socket.destroy() }, now: () => clock.now() });
  const url = await server.listen();
  const config = kubeConfigFor(url, adminToken);
  const core = config.makeApiClient(CoreV1Api);
  const custom = config.makeApiClient(CustomObjectsApi);
  try {
    const measurements = [
      await measure(`list ${SANDBOXES} pods`, 15, () => core.listNamespacedPod({ namespace: "default" })),
      await measure(`list ${SANDBOXES} sandboxes`, 15, () => custom.listNamespacedCustomObject({ group: "agents.x-k8s.io", version: "v1beta1", namespace: "default", plural: "sandboxes" })),
      await measure(`list ${SANDBOXES} persistentvolumeclaims`, 15, () => core.listNamespacedPersistentVolumeClaim({ namespace: "default" })),
      await measure(`list ${SANDBOXES} persistentvolumes`, 15, () => core.listPersistentVolume()),
      await measure("list pods by label (1 match)", 30, () => core.listNamespacedPod({ namespace: "default", labelSelector: "agents.x-k8s.io/sandbox-name-hash=00000abc" })),
      await measure("list pods on one node (fieldSelector)", 15, () => core.listPodForAllNamespaces({ fieldSelector: "spec.nodeName=worker-1" })),
      await measure("list 500 pods (limit)", 30, () => core.listNamespacedPod({ namespace: "default", limit: 500 })),
      await measure("get one pod", 200, () => core.readNamespacedPod({ namespace: "default", name: "box-05000" })),
    ];
    const fanOut = await watchFanOut(store, config);
    return { seedMs, heapMiB: (after.heapUsed - before.heapUsed) / 2 ** 20, rssMiB: (after.rss - before.rss) / 2 ** 20, measurements, fanOut };
  } finally {
    await server.close();
  }
}

/** 50 watchers on all pods; 200 status changes; time until every watcher has every change. */
async function watchFanOut(store: ObjectStore, config: ReturnType<typeof kubeConfigFor>): Promise<SimBenchResult["fanOut"]> {
  const revision = String(store.currentRevision());
  let delivered = 0;
  const expected = WATCHERS * WATCHED_CHANGES;
  let resolveAll: () => void = () => {};
  const all = new Promise<void>((resolve) => (resolveAll = resolve));
  const controllers: AbortController[] = [];
  for (let i = 0; i < WATCHERS; i++) {
    const controller = await new Watch(config).watch("/api/v1/namespaces/default/pods", { resourceVersion: revision }, () => {
      if (++delivered === expected) resolveAll();
    }, () => {});
    controllers.push(controller);
  }
  const began = performance.now();
  for (let i = 0; i < WATCHED_CHANGES; i++) {
    const pod = store.get(refs.pods, "default", `box-${String(i).padStart(5, "0")}`);
    store.update(refs.pods, { ...pod, metadata: { ...pod.metadata, labels: { ...pod.metadata.labels, touched: String(i) } } });
  }
  await all;
  const allDeliveredMs = performance.now() - began;
  for (const controller of controllers) controller.abort();
  return { watchers: WATCHERS, changes: WATCHED_CHANGES, deliveredEvents: delivered, allDeliveredMs, eventsPerSecond: delivered / (allDeliveredMs / 1000) };
}
