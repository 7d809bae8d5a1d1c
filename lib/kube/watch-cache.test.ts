import { CoreV1Api, type V1Pod } from "@kubernetes/client-node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startSimulatedCluster, type SimCluster } from "../sim/index.ts";
import { eventually } from "../sim/testing/eventually.ts";
import { connectToEmbeddedCluster, type ClusterConnection } from "./cluster-connection.ts";
import { WatchCache } from "./watch-cache.ts";
import type { CacheChange } from "./watch-reducer.ts";

// The watch cache against the embedded cluster, with the faults every watch must survive.

let sim: SimCluster;
let connection: ClusterConnection;
let core: CoreV1Api;
const caches: WatchCache<V1Pod>[] = [];

beforeAll(async () => {
  sim = await startSimulatedCluster({ clockScale: 50 });
  connection = connectToEmbeddedCluster(sim.serverUrl, sim.adminToken);
  core = connection.kubeConfig.makeApiClient(CoreV1Api);
});
afterEach(() => {
  for (const cache of caches.splice(0)) cache.stop();
});
afterAll(() => sim.stop());

let counter = 0;
async function aPod(labels: Record<string, string>): Promise<string> {
  const name = `cached-${++counter}`;
  await core.createNamespacedPod({ namespace: "default", body: { metadata: { name, labels }, spec: { containers: [{ name: "agent", image: "busybox", command: ["sleep", "infinity"] }] } } });
  return name;
}

async function fault(path: string, body: unknown = {}) {
  await fetch(`${sim.serverUrl}/sim/v1/${path}`, { method: "POST", headers: { "Content-Type": "application/json", Authorization: `Bearer ${sim.adminToken}` }, body: JSON.stringify(body) });
}

function podCache(group: string) {
  const cache = new WatchCache<V1Pod>(connection, { apiVersion: "v1", kind: "Pod", path: "/api/v1/pods", labelSelector: `group=${group}`, backoff: { initialMs: 20, maxMs: 200 } });
  caches.push(cache);
  const changes: CacheChange<V1Pod>[] = [];
  cache.subscribe((change) => changes.push(change));
  return { cache, changes, names: () => cache.list().map((pod) => pod.metadata!.name).sort() };
}

describe("the watch cache", () => {
  it("starts with what the list says and follows changes", async () => {
    const existing = await aPod({ group: "follow" });
    const { cache, names } = podCache("follow");
    await cache.start();
    const added = await aPod({ group: "follow" });
    await eventually(() => expect(names()).toEqual([existing, added].sort()));
  });

  it("picks up again after its watch is dropped", async () => {
    const { cache, names } = podCache("dropped");
    await cache.start();
    await fault("watches/drop");
    const created = await aPod({ group: "dropped" });
    await eventually(() => expect(names()).toEqual([created]));
  });

  it("lists again when its resourceVersion is too old (410), and reports what it missed", async () => {
    const doomed = await aPod({ group: "gone" });
    const { cache, changes, names } = podCache("gone");
    await cache.start();
    // Keep the cache away while its history is compacted, so it comes back with an old version.
    await fault("api-faults", { verb: "watch", resource: "pods", latencyMs: 400, count: 1 });
    await fault("watches/drop");
    await core.deleteNamespacedPod({ namespace: "default", name: doomed, gracePeriodSeconds: 0 });
    const created = await aPod({ group: "gone" });
    await fault("compact");
    await eventually(() => expect(names()).toEqual([created]));
    expect([cache.stats.relistsAfterGone >= 1, changes.some((change) => change.type === "DELETED" && change.object.metadata?.name === doomed)]).toEqual([true, true]);
  });

  it("retries a failing list with backoff until the API answers", async () => {
    await aPod({ group: "flaky" });
    await fault("api-faults", { verb: "list", resource: "pods", code: 500, count: 2 });
    const { cache, names } = podCache("flaky");
    await cache.start();
    expect([names().length, cache.stats.failures]).toEqual([1, 2]);
  });
});
