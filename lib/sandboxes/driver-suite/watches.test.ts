import type { V1Pod } from "@kubernetes/client-node";
import { afterAll, beforeAll, expect, it } from "vitest";
import { WatchCache } from "../../kube/watch-cache.ts";
import { eventually } from "../../sim/testing/eventually.ts";
import { startSuiteWorld, type SuiteWorld } from "./suite-world.ts";

// Driver suite: every watch ends — a real apiserver closes each one after its request timeout —
// and Berth takes it up again from where it was, missing nothing and listing nothing twice.
// Runs on the embedded cluster in `npm test` and on a real control plane in `npm run test:cluster`.

let world: SuiteWorld;
let pods: WatchCache<V1Pod>;
beforeAll(async () => {
  world = await startSuiteWorld();
  pods = new WatchCache<V1Pod>(world.cluster.connection, { apiVersion: "v1", kind: "Pod", path: "/api/v1/namespaces/default/pods" });
  await pods.start();
  await world.cluster.endWatches(() => pods.stats.watches >= 2);
}, 120_000);
afterAll(async () => {
  pods?.stop();
  await world?.stop();
});

it("a watch the server ended is taken up again from its resourceVersion, without listing again", () => {
  expect(pods.stats).toMatchObject({ lists: 1, relistsAfterGone: 0 });
});

it("a pod created after the watch was taken up again is in the cache", async () => {
  const record = await world.readySandbox({ name: world.named("after-resume") });
  await expect(eventually(() => {
    if (pods.get("default", record.name)?.metadata?.uid !== record.podUid) throw new Error("the pod is not in the cache");
  }, { timeoutMs: world.cluster.patienceMs })).resolves.toBeUndefined();
});
