import { anActor } from "../../domain/test-fixtures.ts";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { maintenanceOptionsSchema, type MaintenanceRun } from "../../domain/maintenance.ts";
import type { SandboxRecord } from "../../domain/sandbox-record.ts";
import { podDisruptionBudgetName } from "../../render/pod-disruption-budget.ts";
import { maintenanceIn } from "../testing/maintenance.ts";
import type { DrainOutcome } from "../testing/operator.ts";
import { inPhase } from "../testing/reconciled-world.ts";
import { needsExec, platformAdmin, replacedAndReady, startSuiteWorld, type SuiteWorld } from "./suite-world.ts";

// Driver suite: disruptions as an operator causes them with kubectl — drain, evict, delete —
// and what Berth makes of them, read from the cluster's own answers: the Eviction API's
// DisruptionTarget condition and its refusals under a PodDisruptionBudget, the scheduler's
// reasons for not placing a replacement. Runs on the embedded cluster in `npm test` and on a
// real control plane in `npm run test:cluster`.

let world: SuiteWorld;
const cordoned = new Set<string>();
beforeAll(async () => {
  world = await startSuiteWorld();
}, 120_000);
afterAll(() => world?.stop());

async function drain(node: string, timeoutSeconds?: number): Promise<DrainOutcome> {
  cordoned.add(node);
  return world.operator.drain(node, { timeoutSeconds });
}

async function uncordonAll(): Promise<void> {
  for (const node of cordoned) await world.operator.uncordon(node);
  cordoned.clear();
}

const timelineOf = (record: SandboxRecord) => world.deps.store.timeline.listForSandbox(record.id, { limit: 200 });
const disruptionReasons = async (record: SandboxRecord) =>
  (await timelineOf(record)).filter((event) => event.type === "Disruption").map((event) => (event.data as { reason?: string }).reason);

describe("a drain of the node under a sandbox on node-pinned storage", () => {
  let before: SandboxRecord;
  let stranded: SandboxRecord;
  let after: SandboxRecord;
  let schedulerSaid: string | undefined;
  beforeAll(async () => {
    before = await world.readySandbox({ name: world.named("pinned") });
    await drain(before.nodeName!);
    stranded = await world.recordWhen(before.id, inPhase("Recovering", "VolumeNodeAffinityConflict"));
    schedulerSaid = (await world.operator.getPod("default", before.name))?.status?.conditions?.find((condition) => condition.type === "PodScheduled")?.message;
    await uncordonAll();
    after = await world.recordWhen(before.id, replacedAndReady(before));
  }, 240_000);

  it("is told on the timeline as a drain, from the eviction's DisruptionTarget condition", async () => {
    expect(await disruptionReasons(before)).toContain("NodeDrained");
  });

  it("leaves the replacement unschedulable in the scheduler's own words", () => {
    expect(schedulerSaid).toMatch(/^0\/2 nodes are available: 1 node\(s\) didn't match PersistentVolume's node affinity, 1 node\(s\) were unschedulable\./);
  });

  it("says why the sandbox waits, quoting the scheduler", () => {
    expect(stranded.message).toContain(`Scheduler: ${schedulerSaid}`);
  });

  it("comes back on the same node once it is uncordoned, in a new pod", () => {
    expect([after.nodeName, after.previousPodUid]).toEqual([before.nodeName, before.podUid]);
  });
});

describe("a drain of the node under a sandbox on portable storage", () => {
  it("moves the sandbox to the other node", async () => {
    const before = await world.readySandbox({ name: world.named("portable"), workspace: { claim: { storageClassName: world.cluster.storageClasses.portable } } });
    await drain(before.nodeName!);
    try {
      const after = await world.recordWhen(before.id, replacedAndReady(before));
      expect(after.nodeName).not.toBe(before.nodeName);
    } finally {
      await uncordonAll();
    }
  });
});

describe("pods taken away without a drain", () => {
  afterEach(uncordonAll);

  it("an eviction through the Eviction API is told as PodEvicted and recovered", async () => {
    const before = await world.readySandbox({ name: world.named("evicted") });
    expect((await world.operator.evict({ namespace: "default", name: before.name })).outcome).toBe("evicted");
    await world.recordWhen(before.id, replacedAndReady(before));
    expect(await disruptionReasons(before)).toContain("PodEvicted");
  });

  it("a pod deleted directly is told as PodDeleted and recovered", async () => {
    const before = await world.readySandbox({ name: world.named("deleted") });
    await world.operator.deletePod({ namespace: "default", name: before.name });
    await world.recordWhen(before.id, replacedAndReady(before));
    expect(await disruptionReasons(before)).toContain("PodDeleted");
  });

  it("a pod the kubelet evicted under memory pressure is recovered by Berth, and the timeline says so", async () => {
    const before = await world.readySandbox({ name: world.named("pressure") });
    await world.operator.kubeletEvict({ namespace: "default", name: before.name });
    await world.recordWhen(before.id, replacedAndReady(before));
    const told = await timelineOf(before);
    expect([told.some((event) => (event.data as { reason?: string }).reason === "ResourcePressure"), told.some((event) => event.reason === "AutoRecovery")]).toEqual([true, true]);
  });

  it("the workspace's files survive the replacement", async (context) => {
    needsExec(world, context);
    const ready = await world.readySandbox({ name: world.named("durable") });
    // The marker the verdict is read from is written once the pod is Ready.
    const before = await world.recordWhen(ready.id, (record) => {
      if ((record.details as { stateMarker?: { podUid?: string } }).stateMarker?.podUid !== record.podUid) throw new Error("the state marker is not written yet");
    });
    await world.operator.deletePod({ namespace: "default", name: before.name });
    const after = await world.recordWhen(before.id, (record) => {
      replacedAndReady(before)(record);
      if (!(record.details as { durableState?: unknown }).durableState) throw new Error("no durable-state verdict yet");
    });
    expect((after.details as { durableState?: { verdict?: string } }).durableState?.verdict).toBe("restored");
  });
});

describe("a sandbox under eviction protection", () => {
  let before: SandboxRecord;
  beforeAll(async () => {
    before = await world.readySandbox({ name: world.named("guarded"), disruptionPolicy: { evictionProtection: true } });
    await world.recordWhen(before.id, (record) => {
      if (!record.details.protection?.refusingEvictions) throw new Error("the budget does not refuse evictions yet");
    });
  }, 120_000);
  afterAll(uncordonAll);

  it("is not evicted: the Eviction API refuses with the budget's reason", async () => {
    expect(await world.operator.evict({ namespace: "default", name: before.name })).toEqual({
      outcome: "refused",
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
    });
  });

  it("holds a drain until it gives up, and keeps its pod", async () => {
    const outcome = await drain(before.nodeName!, 3);
    // Other protected pods on the node (a real cluster is shared) may hold the drain too.
    expect([outcome.blocked.includes(`default/${before.name}`), (await world.operator.getPod("default", before.name))?.metadata?.uid]).toEqual([true, before.podUid]);
  });

  it("shows the held drain, with what to do about it", async () => {
    const blocked = await world.recordWhen(before.id, (record) => {
      if (record.conditions.find((one) => one.type === "EvictionBlocked")?.status !== "True") throw new Error("not shown as blocked");
    });
    expect(blocked.conditions.find((one) => one.type === "EvictionBlocked")?.message).toMatch(/uncordon/);
  });

  it("shows the block gone once the node is uncordoned", async () => {
    await uncordonAll();
    const released = await world.recordWhen(before.id, (record) => {
      if (record.conditions.find((one) => one.type === "EvictionBlocked")?.status !== "False") throw new Error("still blocked");
    });
    expect(released.details.protection?.protected).toBe(true);
  });
});

describe("planned maintenance of the node under a protected sandbox on portable storage", () => {
  let before: SandboxRecord;
  let run: MaintenanceRun;
  beforeAll(async () => {
    // Where a checkpoint cannot run (no exec), the policy lets maintenance go on without one.
    before = await world.readySandbox({
      name: world.named("maintained"),
      workspace: { claim: { storageClassName: world.cluster.storageClasses.portable } },
      disruptionPolicy: { evictionProtection: true, checkpointFailurePolicy: "Proceed" },
    });
    await world.recordWhen(before.id, (record) => {
      if (!record.details.protection?.refusingEvictions) throw new Error("the budget does not refuse evictions yet");
    });
    const maintenance = maintenanceIn(world, { retryMs: 200 });
    cordoned.add(before.nodeName!);
    const options = maintenanceOptionsSchema.parse({ evictionTimeoutSeconds: 10, replacementTimeoutSeconds: world.cluster.patienceMs / 1000 });
    // The cordon and the evictions are the platform admin's, made as them: Berth's own role has neither.
    const admin = await platformAdmin(world);
    run = await maintenance.runToEnd(before.nodeName!, options, anActor(admin.username), { kind: "impersonate", person: admin }).finally(() => maintenance.runner.stop());
  }, 240_000);
  afterAll(uncordonAll);

  it("moves the sandbox: evicted through its relaxed budget and Ready on the other node", async () => {
    const after = await world.deps.store.sandboxes.getSandbox(before.id);
    expect([run.progress.sandboxes.find((entry) => entry.name === before.name)?.step, after?.nodeName === before.nodeName]).toEqual(["Replaced", false]);
  });

  it("puts the budget back once the replacement is Ready", async () => {
    expect((await world.operator.getBudget("default", podDisruptionBudgetName(before.name)))?.spec?.minAvailable).toBe(1);
  });

  it("leaves the node cordoned for the work to begin", async () => {
    expect(world.reconciler.nodeViews().find((node) => node.name === before.nodeName)?.cordoned).toBe(true);
  });
});
