// The sandbox lifecycle on the embedded cluster: Kubernetes API requests and the console's own
// time per create (total minus the time spent waiting on the cluster), the start-up
// reconciliation of 1,000 Sandboxes Berth has not seen, list latency at 1,000 sandboxes — the
// in-memory list the reconciler keeps from its watches (what GET /api/v1/sandboxes serves), the
// store, and asking the cluster API — and the delay from a pod becoming Ready to its event on the bus (what SSE sends).
import { anActor } from "../lib/domain/test-fixtures.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { CustomObjectsApi } from "@kubernetes/client-node";
import { gatewayDefaultsSchema } from "../lib/domain/gateway-defaults.ts";
import { subscribeToTimeline } from "../lib/events/event-bus.ts";
import { connectToEmbeddedCluster } from "../lib/kube/cluster-connection.ts";
import { sandboxResources } from "../lib/kube/sandbox-resources.ts";
import { createSandbox } from "../lib/sandboxes/create-sandbox.ts";
import { LiveSandboxes } from "../lib/sandboxes/live-sandboxes.ts";
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
  listFromMemory: Measurement;
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
  const connection = connectToEmbeddedCluster(sim.serverUrl, sim.adminToken);
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
      await createSandbox(deps, { name: `bench-${i}`, workspace: { claim: { ownership: "retain" } } }, anActor("bench"));
      ownMs.push(performance.now() - began - waited.ms);
      perCreate.push(requests - before);
    });

    // 1,000 Sandboxes made outside Berth (suspended), which the reconciler finds at start-up.
    for (let i = 0; i < LISTED; i++) {
      sim.store.create(refs.sandboxes, {
        apiVersion: "agents.x-k8s.io/v1beta1", kind: "Sandbox",
        metadata: { name: `listed-${i}`, namespace: "default" },
        spec: { operatingMode: "Suspended", podTemplate: { spec: { containers: [{ name: "agent", image: "busybox" }] } } },
      });
    }
    const live = new LiveSandboxes();
    const reconciler = new StatusReconciler({ connection, store, sandboxApiVersion: "v1beta1", labelPrefix: "berth.dev", inFlight, live });
    const reconcilerStarted = performance.now();
    await reconciler.start();
    await reconciler.idle();
    const discoverMs = performance.now() - reconcilerStarted;

    // Lists of 1,000+ sandboxes, two pages of 500: what GET /api/v1/sandboxes serves (memory),
    // what the store would cost, and asking the cluster API each time instead.
    type Paged = { nextCursor: string | null };
    const twoPages = async (list: (cursor?: string) => Promise<Paged> | Paged) => {
      const first = await list();
      await list(first.nextCursor ?? undefined);
    };
    // The store's pages serialized, as a response body is; memory's come serialized.
    const asBody = (page: Paged) => (JSON.stringify(page), page);
    const listFromMemory = await measure(`list ${LISTED}+ sandboxes as GET /api/v1/sandboxes serves them (memory)`, 50, () => twoPages((cursor) => live.wirePage({ limit: 500, cursor })));
    const listFromStore = await measure(`list ${LISTED}+ sandboxes from the store`, 20, () => twoPages(async (cursor) => asBody(await store.sandboxes.listSandboxes({ limit: 500, cursor }))));
    const custom = connection.kubeConfig.makeApiClient(CustomObjectsApi);
    const listFromApi = await measure(`list ${LISTED}+ Sandboxes from the cluster API`, 20, () =>
      twoPages(async (cursor) => {
        const page = (await custom.listNamespacedCustomObject({ group: "agents.x-k8s.io", version: "v1beta1", namespace: "default", plural: "sandboxes", limit: 500, _continue: cursor })) as { metadata?: { _continue?: string } };
        return { nextCursor: page.metadata?._continue || null };
      }),
    );

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
      const { record } = await createSandbox(deps, { name: `ready-${i}` }, anActor("bench"));
      names.set(record.id, record.name);
    }
    await done;
    unwatch();
    reconciler.stop();
    return { requestsPerCreate: median(perCreate), createMs, consoleOwnMsPerCreate: median(ownMs), listFromMemory, listFromStore, listFromApi, discoverMs, readyToEventMs: median(delays) };
  } finally {
    await store.close();
    await sim.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
