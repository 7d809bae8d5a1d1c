import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aVolume } from "../cli/testing/cli-fixtures.ts";
import { anActor } from "../domain/test-fixtures.ts";
import type { Volume } from "../domain/volume.ts";
import type { KubeletSummary } from "../domain/volume-usage.ts";
import { connectionFor } from "../kube/acting-as.ts";
import { KubeApiError } from "../kube/kube-errors.ts";
import { readKubeletSummary } from "../kube/node-stats.ts";
import { eventually } from "../sim/testing/eventually.ts";
import { execInSandbox } from "./sandbox-actions.ts";
import { startReconciledWorld, type ReconciledWorld } from "./testing/reconciled-world.ts";
import { NO_PERMISSION, VolumeUsageSampler } from "./volume-usage.ts";

// How full the mounted claims are: asked of each node's kubelet once per refresh, whoever asks
// and however many claims the node holds; figures, or why there are none.

/** A claim of team-a mounted by a pod on `nodeName`, or by none. */
const aClaim = (name: string, nodeName: string | null): Volume => aVolume({ name, attachedTo: nodeName ? { pod: `pod-of-${name}`, nodeName } : null, usedBytes: null, capacityBytes: null, usageObservedAt: null, usageUnknownReason: "not measured yet" });

/** A summary that reports each claim as using `used` of 10 GiB. */
const summaryOf = (claims: Record<string, number>): KubeletSummary => ({
  pods: Object.entries(claims).map(([name, used]) => ({
    podRef: { name: `pod-of-${name}`, namespace: "team-a" },
    volume: [{ name: "workspace", time: "2026-12-06T08:00:00Z", usedBytes: used, capacityBytes: 10 * 1024 ** 3, availableBytes: 10 * 1024 ** 3 - used, pvcRef: { name, namespace: "team-a" } }],
  })),
});

/** A sampler over fixed summaries per node, counting the requests; time moves only when told. */
function sampler(summaries: Record<string, () => Promise<KubeletSummary>>, options: { waitMs?: number } = {}) {
  let now = Date.parse("2026-12-06T08:00:00Z");
  const asked: string[] = [];
  const usage = new VolumeUsageSampler({
    readSummary: (nodeName) => {
      asked.push(nodeName);
      return summaries[nodeName]!();
    },
    maxAgeMs: 30_000,
    waitMs: options.waitMs ?? 1_000,
    now: () => new Date(now),
  });
  return { usage, asked, advance: (ms: number) => (now += ms) };
}

describe("the volume usage of a page of claims", () => {
  it("gives each mounted claim the bytes its node's kubelet reports", async () => {
    const { usage } = sampler({ "worker-1": async () => summaryOf({ a: 4096 }) });
    const [claim] = await usage.withUsage([aClaim("a", "worker-1")]);
    expect(claim).toMatchObject({ usedBytes: 4096, capacityBytes: 10 * 1024 ** 3, usageObservedAt: "2026-12-06T08:00:00Z", usageUnknownReason: null });
  });

  it("leaves a claim no pod mounts as it was, saying why it has no figures", async () => {
    const { usage, asked } = sampler({});
    const [claim] = await usage.withUsage([aClaim("idle", null)]);
    expect({ reason: claim!.usageUnknownReason, asked }).toEqual({ reason: "not measured yet", asked: [] });
  });

  it("asks each node once for all its claims and for requests made at the same time", async () => {
    const { usage, asked } = sampler({ "worker-1": async () => summaryOf({ a: 1, b: 2 }), "worker-2": async () => summaryOf({ c: 3 }) });
    const page = [aClaim("a", "worker-1"), aClaim("b", "worker-1"), aClaim("c", "worker-2")];
    await Promise.all([usage.withUsage(page), usage.withUsage(page)]);
    expect(asked.sort()).toEqual(["worker-1", "worker-2"]);
  });

  it("keeps a node's answer for its refresh period, then asks again", async () => {
    let used = 100;
    const { usage, asked, advance } = sampler({ "worker-1": async () => summaryOf({ a: used }) });
    await usage.withUsage([aClaim("a", "worker-1")]);
    used = 200;
    const cached = (await usage.withUsage([aClaim("a", "worker-1")]))[0]!.usedBytes;
    advance(30_000);
    const fresh = (await usage.withUsage([aClaim("a", "worker-1")]))[0]!.usedBytes;
    expect({ cached, fresh, asks: asked.length }).toEqual({ cached: 100, fresh: 200, asks: 2 });
  });

  it("says Berth may not ask when the API server refuses nodes/proxy", async () => {
    const { usage } = sampler({ "worker-1": () => Promise.reject(new KubeApiError(403, "Forbidden", "nodes \"worker-1\" is forbidden")) });
    const [claim] = await usage.withUsage([aClaim("a", "worker-1")]);
    expect([claim!.usedBytes, claim!.usageUnknownReason]).toEqual([null, NO_PERMISSION]);
  });

  it("says which kubelet did not answer, and how", async () => {
    const { usage } = sampler({ "worker-1": () => Promise.reject(new KubeApiError(503, "ServiceUnavailable", "error trying to reach service: connection refused")) });
    const [claim] = await usage.withUsage([aClaim("a", "worker-1")]);
    expect(claim!.usageUnknownReason).toBe("the kubelet on worker-1 did not answer: error trying to reach service: connection refused");
  });

  it("does not hold a page back for a slow kubelet: its figures come with a later page", async () => {
    let answer!: (summary: KubeletSummary) => void;
    const slow = new Promise<KubeletSummary>((resolve) => (answer = resolve));
    const { usage, asked } = sampler({ "worker-1": () => slow }, { waitMs: 10 });
    const first = (await usage.withUsage([aClaim("a", "worker-1")]))[0]!;
    answer(summaryOf({ a: 512 }));
    await slow;
    const second = (await usage.withUsage([aClaim("a", "worker-1")]))[0]!;
    expect({ first: first.usageUnknownReason, second: second.usedBytes, asks: asked.length }).toEqual({ first: "the kubelet on worker-1 has not answered yet", second: 512, asks: 1 });
  });
});

describe("volume usage on the embedded cluster, through its kubelets", () => {
  let world: ReconciledWorld;
  beforeAll(async () => {
    world = await startReconciledWorld();
  });
  afterAll(() => world.stop());

  const workspaceOf = async (usage: VolumeUsageSampler, sandboxName: string) => {
    const volumes = await world.reconciler.volumes();
    return (await usage.withUsage(volumes.filter((one) => one.name === `workspace-${sandboxName}`)))[0]!;
  };

  it("grows by what a sandbox writes into its workspace", async () => {
    const sandbox = await world.readySandbox({ name: "usage-writer", workspace: { claim: { size: "1Mi" } } });
    const attached = () => eventually(async () => expect((await world.reconciler.volumes()).find((one) => one.name === "workspace-usage-writer")?.attachedTo).not.toBeNull());
    await attached();
    const fresh = () => new VolumeUsageSampler({ readSummary: (nodeName) => readKubeletSummary(world.deps.connection, nodeName) });
    const before = await workspaceOf(fresh(), "usage-writer");
    await execInSandbox(world.deps, sandbox.id, ["sh", "-c", "echo one > /sandbox/one.txt && echo two > /sandbox/two.txt"], 10, anActor("alice"));
    const after = await workspaceOf(fresh(), "usage-writer");
    expect({ capacity: after.capacityBytes, grewBy: after.usedBytes! - before.usedBytes! >= 2 * 4096 }).toEqual({ capacity: 1024 ** 2, grewBy: true });
  });

  it("is unknown, and says why, for an identity that may not read nodes/proxy", async () => {
    await world.readySandbox({ name: "usage-hidden" });
    const asNobody = connectionFor(world.deps.connection, { kind: "impersonate", person: { username: "nobody", groups: [] } });
    const usage = new VolumeUsageSampler({ readSummary: (nodeName) => readKubeletSummary(asNobody, nodeName) });
    const claim = await eventually(async () => {
      const found = await workspaceOf(usage, "usage-hidden");
      if (!found.attachedTo) throw new Error("not attached yet");
      return found;
    });
    expect([claim.usedBytes, claim.usageUnknownReason]).toEqual([null, NO_PERMISSION]);
  });
});
