import { anActor } from "../domain/test-fixtures.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DurableState } from "../domain/durable-state.ts";
import type { SandboxRecord } from "../domain/sandbox-record.ts";
import type { TimelineEvent } from "../domain/timeline.ts";
import type { DisruptionDetails } from "../disruption/disruption-details.ts";
import type { DrainReport } from "../sim/index.ts";
import { eventually } from "../sim/testing/eventually.ts";
import { LiveSandboxes } from "./live-sandboxes.ts";
import { OperationsInFlight } from "./operations-in-flight.ts";
import { execInSandbox } from "./sandbox-actions.ts";
import { StatusReconciler } from "./status-reconciler.ts";
import { inPhase, startReconciledWorld, type ReconciledWorld } from "./testing/reconciled-world.ts";

// What Kubernetes does to a running sandbox — drains, kubelet eviction, preemption, deletion,
// node loss — and what Berth makes of it: the disruption, the recovery, and whether the
// workspace came back. Each scenario runs once against the embedded cluster; its tests read
// what happened.

const detailsOf = (record: SandboxRecord) => record.details as Partial<DisruptionDetails> & { durableState?: DurableState; stateMarker?: { podUid: string } };
const timelineOf = async (world: ReconciledWorld, id: string) => world.deps.store.timeline.listForSandbox(id, { limit: 200 });
/** What the timeline told of disruptions and recoveries, in order, by event reason. */
const toldOfDisruption = (events: TimelineEvent[]) => events.filter((event) => event.type === "Disruption" || event.type === "Recovery").map((event) => event.reason);
const disruptionReasons = (events: TimelineEvent[]) => events.filter((event) => event.type === "Disruption").map((event) => (event.data as { reason?: string }).reason);
const exec = (world: ReconciledWorld, record: SandboxRecord, script: string) => execInSandbox(world.deps, record.id, ["sh", "-c", script], 10, anActor("alice"));

/** Ready, with the marker of its pod written: from here on a disruption can be judged. */
async function markedSandbox(world: ReconciledWorld, spec: Record<string, unknown>): Promise<SandboxRecord> {
  const ready = await world.readySandbox(spec);
  return world.recordWhen(ready.id, (record) => {
    if (detailsOf(record).stateMarker?.podUid !== record.podUid) throw new Error("the state marker is not written yet");
  });
}

/** Ready in a pod other than `before`'s, with the durable-state verdict stored. */
const recoveredFrom = (before: SandboxRecord) => (record: SandboxRecord) => {
  inPhase("Ready")(record);
  if (record.podUid === before.podUid) throw new Error("still the first pod");
  if (!detailsOf(record).durableState) throw new Error("no durable-state verdict yet");
};

/** Waits, with no console watching, for the cluster to have a Ready pod other than `before`'s. */
async function replacedWhileUnwatched(world: ReconciledWorld, before: SandboxRecord): Promise<void> {
  await eventually(async () => {
    const pod = await world.deps.resources.readPod("default", before.name);
    if (pod?.metadata?.uid === before.podUid) throw new Error("still the first pod");
    if (!pod?.status?.conditions?.some((one) => one.type === "Ready" && one.status === "True")) throw new Error("replacement not Ready yet");
  }, { timeoutMs: 20_000 });
}

/** A console started again on the same store and cluster, until it has seen `before` recover: the record and timeline then. */
async function afterRestart(world: ReconciledWorld, before: SandboxRecord): Promise<{ after: SandboxRecord; events: TimelineEvent[] }> {
  const next = new StatusReconciler({ connection: world.deps.connection, store: world.deps.store, sandboxApiVersion: "v1beta1", labelPrefix: "berth.dev", inFlight: new OperationsInFlight(), live: new LiveSandboxes() });
  await next.start();
  try {
    return { after: await world.recordWhen(before.id, recoveredFrom(before)), events: await timelineOf(world, before.id) };
  } finally {
    next.stop();
  }
}

describe("a drain of the node under a sandbox on node-pinned storage", () => {
  let world: ReconciledWorld;
  let before: SandboxRecord;
  let recovering: SandboxRecord;
  let after: SandboxRecord;
  beforeAll(async () => {
    world = await startReconciledWorld({ workers: 2 });
    before = await markedSandbox(world, { name: "pinned" });
    await exec(world, before, "echo kept > /sandbox/kept.txt && echo gone > /tmp/gone.txt");
    await world.sim.faults.drain(before.nodeName!);
    recovering = await world.recordWhen(before.id, inPhase("Recovering", "VolumeNodeAffinityConflict"));
    world.sim.faults.setUnschedulable(before.nodeName!, false);
    after = await world.recordWhen(before.id, recoveredFrom(before));
  }, 120_000);
  afterAll(() => world?.stop());

  it("is told on the timeline as a disruption by a drain", async () => {
    expect(disruptionReasons(await timelineOf(world, before.id))).toContain("NodeDrained");
  });

  it("says that no checkpoint was taken", () => {
    expect(detailsOf(after).disruption?.checkpointTaken).toBe(false);
  });

  it("waits for its node with the scheduler's own words about the pinned volume", () => {
    expect(recovering.message).toMatch(/node affinity/);
  });

  it("comes back on the same node once it is uncordoned, in a new pod", () => {
    expect([after.nodeName, after.previousPodUid]).toEqual([before.nodeName, before.podUid]);
  });

  it("keeps the workspace: a file in /sandbox survived", async () => {
    expect((await exec(world, after, "cat /sandbox/kept.txt")).stdout).toBe("kept\n");
  });

  it("loses what was outside it: a file in /tmp did not", async () => {
    expect((await exec(world, after, "test -f /tmp/gone.txt")).exitCode).toBe(1);
  });

  it("decides that durable state was restored", () => {
    expect(detailsOf(after).durableState?.verdict).toBe("restored");
  });

  it("records how long recovery took", () => {
    expect(detailsOf(after).recovery?.durationMs).toBeGreaterThan(0);
  });
});

describe("on portable storage", () => {
  let world: ReconciledWorld;
  beforeAll(async () => {
    world = await startReconciledWorld({ workers: 2, defaultStorageClass: "portable" });
  }, 30_000);
  afterAll(() => world?.stop());

  it("a drained sandbox recovers on the other node, with its recovery time recorded", async () => {
    const before = await markedSandbox(world, { name: "portable" });
    await world.sim.faults.drain(before.nodeName!);
    const after = await world.recordWhen(before.id, recoveredFrom(before));
    world.sim.faults.setUnschedulable(before.nodeName!, false);
    expect([after.nodeName !== before.nodeName, typeof detailsOf(after).recovery?.durationMs]).toEqual([true, "number"]);
  });

  it("an unplanned node loss is a disruption, NodeLost, with no checkpoint", async () => {
    const before = await markedSandbox(world, { name: "lost-node" });
    world.sim.faults.loseNode(before.nodeName!);
    try {
      const lost = await world.recordWhen(before.id, inPhase("Disrupted", "NodeLost"));
      expect(detailsOf(lost).disruption?.checkpointTaken).toBe(false);
    } finally {
      world.sim.faults.restoreNode(before.nodeName!);
    }
  });

  it("a sandbox whose node was lost recovers once its pod is gone", async () => {
    const before = await markedSandbox(world, { name: "lost-then-back" });
    world.sim.faults.loseNode(before.nodeName!);
    await world.recordWhen(before.id, inPhase("Disrupted", "NodeLost"));
    // What an operator does about a node that will not come back: force-delete its pods.
    world.sim.faults.deletePod("default", before.name, true);
    const after = await world.recordWhen(before.id, recoveredFrom(before));
    world.sim.faults.restoreNode(before.nodeName!);
    expect(after.nodeName).not.toBe(before.nodeName);
  });
});

describe("pods taken away in other ways", () => {
  let world: ReconciledWorld;
  beforeAll(async () => {
    world = await startReconciledWorld({ workers: 2, defaultStorageClass: "portable" });
  }, 30_000);
  afterAll(() => world?.stop());

  it("a kubelet pressure eviction is recovered automatically, and the timeline says Berth did it", async () => {
    const before = await markedSandbox(world, { name: "pressure" });
    world.sim.faults.kubeletEvict("default", before.name, "memory");
    await world.recordWhen(before.id, recoveredFrom(before));
    expect((await timelineOf(world, before.id)).map((event) => event.reason)).toContain("AutoRecovery");
  });

  it("a kubelet pressure eviction is left alone when the policy turns auto-recovery off", async () => {
    const before = await markedSandbox(world, { name: "pressure-manual", disruptionPolicy: { autoRecoverFailedPods: false } });
    world.sim.faults.kubeletEvict("default", before.name, "memory");
    await world.recordWhen(before.id, inPhase("Disrupted", "ResourcePressure"));
    await world.reconciler.idle();
    expect((await world.deps.resources.readPod("default", before.name))?.status?.phase).toBe("Failed");
  });

  it("a preemption is classified as Preempted", async () => {
    const before = await markedSandbox(world, { name: "preempted" });
    world.sim.faults.preempt("default", before.name);
    await world.recordWhen(before.id, recoveredFrom(before));
    expect(disruptionReasons(await timelineOf(world, before.id))).toContain("Preempted");
  });

  it("a pod deleted directly is classified as PodDeleted", async () => {
    const before = await markedSandbox(world, { name: "deleted-pod" });
    world.sim.faults.deletePod("default", before.name);
    await world.recordWhen(before.id, recoveredFrom(before));
    expect(disruptionReasons(await timelineOf(world, before.id))).toContain("PodDeleted");
  });
});

describe("a drain of the node under a protected sandbox", () => {
  let world: ReconciledWorld;
  let before: SandboxRecord;
  let drain: DrainReport;
  let blocked: SandboxRecord;
  beforeAll(async () => {
    world = await startReconciledWorld({ workers: 2 });
    before = await markedSandbox(world, { name: "guarded", disruptionPolicy: { evictionProtection: true } });
    await world.recordWhen(before.id, (record) => {
      if (!record.details.protection?.refusingEvictions) throw new Error("the budget does not refuse evictions yet");
    });
    drain = await world.sim.faults.drain(before.nodeName!, { timeoutSeconds: 30 });
    blocked = await world.recordWhen(before.id, (record) => {
      if (record.conditions.find((one) => one.type === "EvictionBlocked")?.status !== "True") throw new Error("not shown as blocked");
    });
  }, 60_000);
  afterAll(() => world?.stop());

  it("holds the drain: the eviction is refused until the drain gives up", () => {
    expect(drain.blocked).toEqual([`default/${before.name}`]);
  });

  it("keeps its pod: the pod UID is unchanged", async () => {
    expect((await world.deps.resources.readPod("default", before.name))?.metadata?.uid).toBe(before.podUid);
  });

  it("shows the drain as blocked, with what to do about it", () => {
    expect(blocked.conditions.find((one) => one.type === "EvictionBlocked")?.message).toMatch(/uncordon/);
  });

  it("tells the timeline that a drain waits on it", async () => {
    expect((await timelineOf(world, before.id)).map((event) => event.reason)).toContain("DrainBlocked");
  });

  it("shows the block gone once the node is uncordoned", async () => {
    world.sim.faults.setUnschedulable(before.nodeName!, false);
    const released = await world.recordWhen(before.id, (record) => {
      if (record.conditions.find((one) => one.type === "EvictionBlocked")?.status !== "False") throw new Error("still blocked");
    });
    expect(released.details.protection?.protected).toBe(true);
  });
});

describe("a console restarted in the middle of a disruption", () => {
  let world: ReconciledWorld;
  let before: SandboxRecord;
  let after: SandboxRecord;
  let events: TimelineEvent[];
  beforeAll(async () => {
    world = await startReconciledWorld({ workers: 2, defaultStorageClass: "portable" });
    before = await markedSandbox(world, { name: "restarted" });
    // Keep the replacement from being placed while the first console watches the disruption.
    world.sim.faults.setUnschedulable(before.nodeName === "worker-1" ? "worker-2" : "worker-1", true);
    await world.sim.faults.drain(before.nodeName!);
    await world.recordWhen(before.id, inPhase("Recovering"));
    world.reconciler.stop();
    // While no console watches, the cluster recovers the sandbox.
    world.sim.faults.setUnschedulable(before.nodeName!, false);
    await replacedWhileUnwatched(world, before);
    ({ after, events } = await afterRestart(world, before));
  }, 90_000);
  afterAll(() => world?.stop());

  it("finishes the recovery the first console saw begin", () => {
    expect(detailsOf(after).recovery?.reason).toBe("Recovered");
  });

  it("keeps the disruption's history complete: disrupted, recovering, recovered", () => {
    const told = toldOfDisruption(events);
    expect([told.includes("Disrupted"), told.includes("Recovering"), told.at(-1)]).toEqual([true, true, "Recovered"]);
  });

  it("tells the disruption once, not again after the restart", () => {
    expect(events.filter((event) => event.reason === "Disrupted").length).toBe(1);
  });
});

describe("a pod replaced while no console watched", () => {
  let world: ReconciledWorld;
  let before: SandboxRecord;
  let after: SandboxRecord;
  let events: TimelineEvent[];
  beforeAll(async () => {
    world = await startReconciledWorld({ workers: 2 });
    before = await markedSandbox(world, { name: "unwatched" });
    world.reconciler.stop();
    world.sim.faults.deletePod("default", before.name);
    await replacedWhileUnwatched(world, before);
    // The next look finds the sandbox Ready again, in a new pod: nothing in between was seen.
    ({ after, events } = await afterRestart(world, before));
  }, 90_000);
  afterAll(() => world?.stop());

  it("tells the disruption it never saw", () => {
    expect(disruptionReasons(events)).toEqual(["PodDeleted"]);
  });

  it("tells the recovery after the disruption", () => {
    const told = toldOfDisruption(events);
    expect(told).toEqual(["PodDeleted", "Recovered"]);
  });

  it("judges the workspace in the replacement", () => {
    expect(detailsOf(after).durableState?.verdict).toBe("restored");
  });
});
