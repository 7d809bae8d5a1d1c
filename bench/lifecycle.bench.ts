// The sandbox lifecycle on the embedded cluster: Kubernetes API requests and the console's own
// time per create, list latency at 1,000 sandboxes from the watch cache against the cluster API,
// and the delay from a pod becoming Ready to its event on the bus (what SSE clients get).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { CustomObjectsApi } from "@kubernetes/client-node";
import { gatewayDefaultsSchema } from "../lib/domain/gateway-defaults.ts";
import { subscribeToTimeline } from "../lib/events/event-bus.ts";
import { connectToEmbeddedCluster } from "../lib/kube/cluster-connection.ts";
import { sandboxResources } from "../lib/kube/sandbox-resources.ts";
import { WatchCache } from "../lib/kube/watch-cache.ts";
import { createSandbox } from "../lib/sandboxes/create-sandbox.ts";
import { StatusReconciler } from "../lib/sandboxes/status-reconciler.ts";
import { refs } from "../lib/sim/k8s-objects.ts";
import { startSimulatedCluster } from "../lib/sim/index.ts";
import { openStore } from "../lib/store/index.ts";
import { measure, type Measurement } from "./measure.ts";

const CREATES = 30;
const LISTED = 1_000;
const READY_SAMPLES = 10;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export interface LifecycleBenchResult {
  requestsPerCreate: number;
  createMs: Measurement;
  listFromCache: Measurement;
  listFromApi: Measurement;
  readyToEventMs: number;
}

export async function benchLifecycle(): Promise<LifecycleBenchResult> {
  let requests = 0;
  const sim = await startSimulatedCluster({ clockScale: 100, log: (line) => (/^(GET|POST|PUT|PATCH|DELETE) /.test(line) ? requests++ : undefined) });
  const dataDir = mkdtempSync(path.join(tmpdir(), "berth-bench-lifecycle-"));
  const store = await openStore({ kind: "pglite", dataDir });
  const connection = connectToEmbeddedCluster(sim.serverUrl);
  const deps = { store, resources: sandboxResources(connection, "v1beta1"), sandboxApiVersion: "v1beta1" as const, defaults: gatewayDefaultsSchema.parse({}) };
  try {
    // Creates: requests counted on the simulated API server while each create runs.
    const perCreate: number[] = [];
    const createMs = await measure("create (retain claim + Sandbox)", CREATES, async (i) => {
      const before = requests;
      await createSandbox(deps, { name: `bench-${i}`, workspace: { claim: { ownership: "retain" } } }, "bench");
      perCreate.push(requests - before);
    });

    // Lists of 1,000 Sandboxes: the watch cache Berth keeps against asking the API each time.
    for (let i = 0; i < LISTED; i++) {
      sim.store.create(refs.sandboxes, {
        apiVersion: "agents.x-k8s.io/v1beta1", kind: "Sandbox",
        metadata: { name: `listed-${i}`, namespace: "default", labels: { "berth.dev/managed-by": "berth", "berth.dev/sandbox-id": `id-${i}` } },
        spec: { operatingMode: "Suspended", podTemplate: { spec: { containers: [{ name: "agent", image: "busybox" }] } } },
      });
    }
    const cache = new WatchCache(connection, { apiVersion: "agents.x-k8s.io/v1beta1", kind: "Sandbox", path: "/apis/agents.x-k8s.io/v1beta1/sandboxes", labelSelector: "berth.dev/managed-by=berth" });
    await cache.start();
    const listFromCache = await measure(`list ${LISTED}+ sandboxes from the watch cache`, 50, () => cache.list().filter((one) => one.metadata?.namespace === "default"));
    const custom = connection.kubeConfig.makeApiClient(CustomObjectsApi);
    const listFromApi = await measure(`list ${LISTED}+ sandboxes from the cluster API`, 20, () =>
      custom.listNamespacedCustomObject({ group: "agents.x-k8s.io", version: "v1beta1", namespace: "default", plural: "sandboxes", labelSelector: "berth.dev/managed-by=berth" }),
    );
    cache.stop();

    // Pod Ready in the cluster → Ready on the bus, through watches, derivation, store and bus.
    const reconciler = new StatusReconciler({ connection, store, sandboxApiVersion: "v1beta1", labelPrefix: "berth.dev" });
    await reconciler.start();
    const podReadyAt = new Map<string, number>();
    const unwatch = sim.store.subscribe((event) => {
      if (event.resource !== "pods" || event.type !== "MODIFIED") return;
      const ready = (event.object.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions?.some((one) => one.type === "Ready" && one.status === "True");
      if (ready && !podReadyAt.has(event.object.metadata.name)) podReadyAt.set(event.object.metadata.name, performance.now());
    });
    const delays: number[] = [];
    const names = new Map<string, string>();
    const done = new Promise<void>((resolve) => {
      const unsubscribe = subscribeToTimeline((event) => {
        const name = event.sandboxId ? names.get(event.sandboxId) : undefined;
        if (!name || event.reason !== "Ready" || !podReadyAt.has(name)) return;
        delays.push(performance.now() - podReadyAt.get(name)!);
        if (delays.length === READY_SAMPLES) {
          unsubscribe();
          resolve();
        }
      });
    });
    for (let i = 0; i < READY_SAMPLES; i++) {
      const { record } = await createSandbox(deps, { name: `ready-${i}` }, "bench");
      names.set(record.id, record.name);
    }
    await done;
    unwatch();
    reconciler.stop();
    return { requestsPerCreate: median(perCreate), createMs, listFromCache, listFromApi, readyToEventMs: median(delays) };
  } finally {
    await store.close();
    await sim.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
