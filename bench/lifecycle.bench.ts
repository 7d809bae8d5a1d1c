// The sandbox lifecycle on the embedded cluster: Kubernetes API requests and the console's own
// time per create (total minus the time spent waiting on the cluster), list latency at 1,000
// sandboxes — the reconciler's watch cache and the store it keeps (what GET /api/v1/sandboxes
// reads) against asking the cluster API — the start-up reconciliation of 1,000 Sandboxes Berth
// has not seen, and the delay from a pod becoming Ready to its event on the bus (what SSE sends).
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
import { OperationsInFlight } from "../lib/sandboxes/operations-in-flight.ts";
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
  /** Median per create of the time not spent waiting on Kubernetes requests. */
  consoleOwnMsPerCreate: number;
  listFromCache: Measurement;
  listFromStore: Measurement;
  listFromApi: Measurement;
  /** From the reconciler's start to every one of LISTED unseen Sandboxes recorded. */
  discoverMs: number;
  readyToEventMs: number;
}

/** The same resources, adding each call's wall time to `waited`. */
function timed<T extends object>(resources: T, waited: { ms: number }): T {
  return new Proxy(resources, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== "function") return value;
      return async (...args: unknown[]) => {
        const began = performance.now();
        try {
          return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        } finally {
          waited.ms += performance.now() - began;
        }
      };
    },
  });
}

export async function benchLifecycle(): Promise<LifecycleBenchResult> {
  let requests = 0;
  const sim = await startSimulatedCluster({ clockScale: 100, log: (line) => (/^(GET|POST|PUT|PATCH|DELETE) /.test(line) ? requests++ : undefined) });
  const dataDir = mkdtempSync(path.join(tmpdir(), "berth-bench-lifecycle-"));
  const store = await openStore({ kind: "pglite", dataDir });
  const connection = connectToEmbeddedCluster(sim.serverUrl);
  const waited = { ms: 0 };
  const inFlight = new OperationsInFlight();
  const deps = { store, resources: timed(sandboxResources(connection, "v1beta1"), waited), sandboxApiVersion: "v1beta1" as const, defaults: gatewayDefaultsSchema.parse({}), inFlight };
  try {
    // Creates: requests counted on the simulated API server while each create runs; the
    // console's own time is what remains once the waits on those requests are taken away.
    const perCreate: number[] = [];
    const ownMs: number[] = [];
    const createMs = await measure("create (retain claim + Sandbox)", CREATES, async (i) => {
      const before = requests;
      waited.ms = 0;
      const began = performance.now();
      await createSandbox(deps, { name: `bench-${i}`, workspace: { claim: { ownership: "retain" } } }, "bench");
      ownMs.push(performance.now() - began - waited.ms);
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

    // Start-up reconciliation: the 1,000 Sandboxes Berth has no record of are found and recorded.
    const reconciler = new StatusReconciler({ connection, store, sandboxApiVersion: "v1beta1", labelPrefix: "berth.dev", inFlight });
    const reconcilerStarted = performance.now();
    await reconciler.start();
    await reconciler.idle();
    const discoverMs = performance.now() - reconcilerStarted;
    // What GET /api/v1/sandboxes reads: the store the reconciler keeps, two pages of 500.
    const listFromStore = await measure(`list ${LISTED}+ sandboxes from the store (2 pages)`, 20, async () => {
      const first = await store.sandboxes.listSandboxes({ limit: 500 });
      await store.sandboxes.listSandboxes({ limit: 500, cursor: first.nextCursor ?? undefined });
    });

    // Pod Ready in the cluster → Ready on the bus, through watches, derivation, store and bus.
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
    return { requestsPerCreate: median(perCreate), createMs, consoleOwnMsPerCreate: median(ownMs), listFromCache, listFromStore, listFromApi, discoverMs, readyToEventMs: median(delays) };
  } finally {
    await store.close();
    await sim.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
