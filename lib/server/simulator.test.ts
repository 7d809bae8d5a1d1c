import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENDPOINTS } from "../domain/endpoints.ts";
import { simulatorDrainOptionsSchema } from "../domain/simulator.ts";
import { connectToEmbeddedCluster } from "../kube/cluster-connection.ts";
import { eventually } from "../sim/testing/eventually.ts";
import { startReconciledWorld, type ReconciledWorld } from "../sandboxes/testing/reconciled-world.ts";
import { runNodeAction, runPodAction } from "./simulator-actions.ts";
import { simulatorClient, SimulatorRequestError, type SimulatorClient } from "./simulator-client.ts";
import { simulatorOf, simulatorProblem } from "./simulator-route.ts";
import { simulatorState } from "./simulator-state.ts";

// The Simulator page's server side against a real embedded cluster (two workers, portable
// storage): the HTTP client of the fault API, the actions with what they say, the state the
// page shows, and the problems the routes answer. No HTTP is mocked.

let world: ReconciledWorld;
let client: SimulatorClient;
const DRAIN = simulatorDrainOptionsSchema.parse({ timeoutSeconds: 60 });

const stateNow = async () => simulatorState(await client.state(), world.reconciler.nodeViews(), await world.deps.store.sandboxes.listAllLive());
const nodeNow = async (name: string) => (await stateNow()).nodes.find((node) => node.name === name)!;

beforeAll(async () => {
  world = await startReconciledWorld({ workers: 2, defaultStorageClass: "portable" });
  client = simulatorOf({ connection: connectToEmbeddedCluster(world.sim.serverUrl, world.sim.adminToken), simulatorUrl: world.sim.serverUrl, stop: async () => {} });
}, 60_000);
afterAll(() => world?.stop());

describe("the simulator's state", () => {
  it("lists every node with its kubelet up, Ready and schedulable", async () => {
    expect((await stateNow()).nodes.map(({ name, up, ready, cordoned }) => ({ name, up, ready, cordoned }))).toEqual([
      { name: "worker-1", up: true, ready: true, cordoned: false },
      { name: "worker-2", up: true, ready: true, cordoned: false },
    ]);
  });

  it("shows a Ready sandbox's pod on its node, with the sandbox to follow", async () => {
    const record = await world.readySandbox({ name: "shown" });
    const node = await nodeNow(record.nodeName!);
    expect(node.pods).toEqual([{ namespace: "default", pod: "shown", sandbox: { id: record.id, name: "shown", phase: "Ready", reason: record.reason } }]);
  });
});

describe("node actions", () => {
  it("cordon and uncordon change what the control plane says, and say so", async () => {
    const cordoned = await runNodeAction(client, "worker-2", "cordon", DRAIN);
    await eventually(async () => expect((await nodeNow("worker-2")).cordoned).toBe(true));
    const uncordoned = await runNodeAction(client, "worker-2", "uncordon", DRAIN);
    await eventually(async () => expect((await nodeNow("worker-2")).cordoned).toBe(false));
    expect([cordoned.message, uncordoned.message]).toEqual([expect.stringContaining("worker-2 is cordoned"), expect.stringContaining("schedulable again")]);
  });

  it("lose stops the kubelet at once and the control plane notices; restore brings it back", async () => {
    const lost = await runNodeAction(client, "worker-2", "lose", DRAIN);
    // Node-pinned storage does not come back elsewhere (docs/storage-topology.md): the reply says so.
    expect(lost.message).toContain("one whose volume is pinned to worker-2 waits until the node is restored");
    expect((await nodeNow("worker-2")).up).toBe(false);
    await eventually(async () => expect((await nodeNow("worker-2")).ready).toBe(false), { timeoutMs: 20_000 });
    const restored = await runNodeAction(client, "worker-2", "restore", DRAIN);
    await eventually(async () => expect(await nodeNow("worker-2")).toMatchObject({ up: true, ready: true }), { timeoutMs: 20_000 });
    expect(restored.message).toContain("kubelet is back");
  });

  it("a drain reports a protected sandbox as blocked by its budget, and says what that means", async () => {
    const guarded = await world.readySandbox({ name: "guarded", disruptionPolicy: { evictionProtection: true } });
    const node = guarded.nodeName!;
    try {
      const result = await runNodeAction(client, node, "drain", DRAIN);
      expect([result.drain?.blocked, result.drain?.completed, result.message]).toEqual([["default/guarded"], false, expect.stringContaining("PodDisruptionBudget")]);
    } finally {
      await client.uncordon(node);
    }
  });

  it("a drain evicts an unprotected sandbox, which comes back on the other node", async () => {
    const plain = await world.readySandbox({ name: "plain" });
    const node = plain.nodeName!;
    try {
      const result = await runNodeAction(client, node, "drain", DRAIN);
      // The node may hold others' sandboxes too (a protected one blocks the drain from completing): only this one is the point here.
      expect(result.drain?.evicted).toEqual(expect.arrayContaining(["default/plain"]));
      await world.recordWhen(plain.id, (record) => expect([record.phase, record.nodeName === node]).toEqual(["Ready", false]));
    } finally {
      await client.uncordon(node);
    }
  });
});

describe("pod actions", () => {
  it("deleting a sandbox's pod replaces it, and the state shows the new pod Ready", async () => {
    const before = await world.readySandbox({ name: "deleted-pod" });
    const result = await runPodAction(client, "default", "deleted-pod", "delete");
    const after = await world.recordWhen(before.id, (record) => expect([record.phase, record.podUid !== before.podUid]).toEqual(["Ready", true]), 30_000);
    expect([result.target, result.message, (await nodeNow(after.nodeName!)).pods.some((pod) => pod.sandbox.id === before.id)]).toEqual([
      "default/deleted-pod",
      expect.stringContaining("recreates it"),
      true,
    ]);
  });

  it("a kubelet eviction leaves the pod Failed and Berth recovers it", async () => {
    const before = await world.readySandbox({ name: "evicted-pod" });
    await runPodAction(client, "default", "evicted-pod", "kubelet-evict");
    await world.recordWhen(before.id, (record) => expect([record.phase, record.podUid !== before.podUid]).toEqual(["Ready", true]), 30_000);
  });
});

describe("failures as problems", () => {
  it("an unknown node is a 404 from the fault API, answered as simulator-not-found", async () => {
    const error = await client.cordon("worker-9").catch((caught: unknown) => caught);
    expect([error instanceof SimulatorRequestError && error.status, simulatorProblem(error)?.status, simulatorProblem(error)?.code]).toEqual([404, 404, "simulator-not-found"]);
  });

  it("a simulator that does not answer is a 503", async () => {
    const error = await simulatorClient("http://127.0.0.1:9", undefined).state().catch((caught: unknown) => caught);
    expect(simulatorProblem(error)).toMatchObject({ status: 503, code: "simulator-unreachable" });
  });

  it("on a real cluster there is no simulator: 404 simulator-unavailable, saying how to get one", () => {
    const real = { connection: { ...connectToEmbeddedCluster("https://k8s.example:6443", "unused"), mode: "kubeconfig" as const }, simulatorUrl: null, stop: async () => {} };
    const error = (() => {
      try {
        return simulatorOf(real);
      } catch (caught) {
        return caught;
      }
    })();
    expect(simulatorProblem(error)).toMatchObject({ status: 404, code: "simulator-unavailable", detail: expect.stringContaining("BERTH_CLUSTER=embedded") });
  });

  it("an unknown action is refused naming the allowed ones", () => {
    const parsed = ENDPOINTS.simulatorNodeAction.params.safeParse({ name: "worker-1", action: "reboot" });
    expect(parsed.error?.issues[0]?.message).toContain("cordon, uncordon, drain, lose, restore");
  });

  it("a drain body is checked, and no body means the defaults", () => {
    const body = ENDPOINTS.simulatorNodeAction.body.schema;
    expect([body.safeParse({ timeoutSeconds: -1 }).error?.issues[0]?.path, simulatorDrainOptionsSchema.parse({})]).toEqual([["timeoutSeconds"], { deleteEmptyDirData: true, timeoutSeconds: 120 }]);
  });
});
