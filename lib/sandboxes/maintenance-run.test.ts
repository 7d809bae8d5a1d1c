import { anActor } from "../domain/test-fixtures.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDisruptionDetails } from "../disruption/disruption-details.ts";
import type { MaintenanceRun } from "../domain/maintenance.ts";
import { maintenanceOptionsSchema } from "../domain/maintenance.ts";
import type { SandboxRecord } from "../domain/sandbox-record.ts";
import { podDisruptionBudgetName } from "../render/pod-disruption-budget.ts";
import { eventually } from "../sim/testing/eventually.ts";
import { MaintenanceConflictError, requestCancel } from "./maintenance-requests.ts";
import { SandboxStateError } from "./lifecycle-errors.ts";
import { setSandboxRunning } from "./sandbox-actions.ts";
import { maintenanceIn, type Maintenance } from "./testing/maintenance.ts";
import { startReconciledWorld, type ReconciledWorld } from "./testing/reconciled-world.ts";

// Planned maintenance of a node against the embedded cluster (portable storage, two workers):
// checkpoint, obey each sandbox's checkpoint failure policy, relax a budget only for its own
// eviction, move the sandboxes, put the budgets back — run by the writer alone, stopped when
// asked from anywhere, and resumed by the next writer from where the last one stopped.

const OPTIONS = maintenanceOptionsSchema.parse({ evictionTimeoutSeconds: 5, replacementTimeoutSeconds: 20 });
const OK_HOOK = ["sh", "-c", "echo saved > /sandbox/saved.txt"];
/** A hook that outlives its one-second deadline (simulated seconds run faster, but not 3600 times). */
const OVERRUNNING = { checkpointHook: ["sh", "-c", "sleep 3600"], checkpointGracePeriodSeconds: 1, terminationGracePeriodSeconds: 30 };

interface Maintained {
  world: ReconciledWorld;
  sandboxes: Record<string, SandboxRecord>;
}

/** A world whose named sandboxes all run on worker-1, with worker-2 free to take them. */
async function sandboxesOnWorker1(specs: Record<string, Record<string, unknown>>): Promise<Maintained> {
  const world = await startReconciledWorld({ workers: 2, defaultStorageClass: "portable" });
  world.sim.faults.setUnschedulable("worker-2", true);
  const sandboxes: Record<string, SandboxRecord> = {};
  for (const [name, spec] of Object.entries(specs)) sandboxes[name] = await world.readySandbox({ name, ...spec });
  world.sim.faults.setUnschedulable("worker-2", false);
  await eventually(() => {
    if (world.reconciler.nodeViews().find((node) => node.name === "worker-2")?.cordoned !== false) throw new Error("worker-2 not seen uncordoned yet");
  });
  return { world, sandboxes };
}

const stepOf = (run: MaintenanceRun, name: string) => run.progress.sandboxes.find((entry) => entry.name === name)?.step;
const budgetMinAvailable = async (world: ReconciledWorld, name: string) => (await world.deps.resources.readBudget("default", podDisruptionBudgetName(name)))?.spec?.minAvailable;

describe("maintenance of a node whose sandboxes checkpoint fine", () => {
  let maintained: Maintained;
  let maintenance: Maintenance;
  let run: MaintenanceRun;
  beforeAll(async () => {
    maintained = await sandboxesOnWorker1({
      plain: { disruptionPolicy: { checkpointHook: OK_HOOK } },
      guarded: { disruptionPolicy: { checkpointHook: OK_HOOK, evictionProtection: true } },
    });
    maintenance = maintenanceIn(maintained.world);
    run = await maintenance.runToEnd("worker-1", OPTIONS);
  }, 90_000);
  afterAll(async () => {
    maintenance?.runner.stop();
    await maintained?.world.stop();
  });

  it("is run once, by the writer", () => {
    expect([run.attempts, run.runBy]).toEqual([1, "test-writer"]);
  });

  it("succeeds", () => {
    expect([run.state, run.message]).toEqual(["Succeeded", expect.stringContaining("2 moved")]);
  });

  it("moves every sandbox to the other node", async () => {
    const records = await Promise.all(Object.values(maintained.sandboxes).map((one) => maintained.world.deps.store.sandboxes.getSandbox(one.id)));
    expect(records.map((record) => record?.nodeName)).toEqual(["worker-2", "worker-2"]);
  });

  it("checkpoints each sandbox before evicting it", async () => {
    const checkpoints = await maintained.world.deps.store.checkpoints.listCheckpoints(maintained.sandboxes.guarded!.id);
    expect(checkpoints.map((one) => [one.trigger, one.result])).toEqual([["Maintenance", "Succeeded"]]);
  });

  it("records each sandbox's disruption as saved by the checkpoint taken before it", async () => {
    const records = await Promise.all(Object.values(maintained.sandboxes).map((one) => maintained.world.deps.store.sandboxes.getSandbox(one.id)));
    expect(records.map((record) => readDisruptionDetails(record!.details).disruption)).toEqual([
      expect.objectContaining({ checkpointTaken: true, message: expect.stringContaining("The last successful checkpoint in this pod finished at") }),
      expect.objectContaining({ checkpointTaken: true, message: expect.stringContaining("The last successful checkpoint in this pod finished at") }),
    ]);
  });

  it("puts the protected sandbox's budget back once its replacement is Ready", async () => {
    expect([await budgetMinAvailable(maintained.world, "guarded"), run.relaxedBudgets]).toEqual([1, []]);
  });

  it("leaves the node cordoned", async () => {
    expect(maintained.world.reconciler.nodeViews().find((node) => node.name === "worker-1")?.cordoned).toBe(true);
  });
});

describe("maintenance at the pace of each sandbox, and of the API server", () => {
  /** Ten seconds at the embedded cluster's ×200 clock, well inside its grace period. */
  const TEN_SECOND_HOOK = { checkpointHook: ["sh", "-c", "sleep 2000; echo saved > /sandbox/saved.txt"], checkpointGracePeriodSeconds: 20 };
  let maintained: Maintained;
  let maintenance: Maintenance;
  let run: MaintenanceRun;
  const reasonAt = async (name: string, reason: string) => {
    const events = await maintained.world.deps.store.timeline.listForSandbox(maintained.sandboxes[name]!.id, { limit: 100 });
    return events.find((event) => event.reason === reason && event.data?.runId === run.id)!.occurredAt.getTime();
  };
  beforeAll(async () => {
    maintained = await sandboxesOnWorker1({ slow: { disruptionPolicy: TEN_SECOND_HOOK }, quick: { disruptionPolicy: { checkpointHook: OK_HOOK } } });
    maintenance = maintenanceIn(maintained.world);
    maintained.world.sim.faults.injectApiFault({ verb: "create", resource: "pods", code: 429, retryAfterSeconds: 1, count: 1 });
    run = await maintenance.runToEnd("worker-1", OPTIONS);
  }, 90_000);
  afterAll(async () => {
    maintenance?.runner.stop();
    await maintained?.world.stop();
  });

  it("moves a quick sandbox while a slow one is still checkpointing", async () => {
    expect(await reasonAt("quick", "MaintenanceReplaced")).toBeLessThan(await reasonAt("slow", "MaintenanceCheckpointed"));
  });

  it("waits out an eviction the API server throttled, and moves every sandbox", () => {
    expect([run.state, stepOf(run, "quick"), stepOf(run, "slow")]).toEqual(["Succeeded", "Replaced", "Replaced"]);
  });

  it("says the API server throttled it, and how far it slowed down", () => {
    expect(run.message).toContain("The API server throttled Berth 1 time(s) meanwhile, so the run slowed down to as few as 1 checkpoint(s) or eviction(s) at once");
  });
});

describe("maintenance when checkpoint hooks overrun their deadline", () => {
  let maintained: Maintained;
  let maintenance: Maintenance;
  let run: MaintenanceRun;
  beforeAll(async () => {
    maintained = await sandboxesOnWorker1({
      blocker: { disruptionPolicy: { ...OVERRUNNING, evictionProtection: true } },
      proceeder: { disruptionPolicy: { ...OVERRUNNING, checkpointFailurePolicy: "Proceed" } },
      waiter: { disruptionPolicy: { ...OVERRUNNING, checkpointFailurePolicy: "ProceedAfterTimeout" } },
      "fast-failer": { disruptionPolicy: { checkpointHook: ["sh", "-c", "exit 1"], checkpointGracePeriodSeconds: 2, terminationGracePeriodSeconds: 30, checkpointFailurePolicy: "ProceedAfterTimeout" } },
    });
    maintenance = maintenanceIn(maintained.world);
    run = await maintenance.runToEnd("worker-1", OPTIONS);
  }, 90_000);
  afterAll(async () => {
    maintenance?.runner.stop();
    await maintained?.world.stop();
  });

  it("records each checkpoint as TimedOut", async () => {
    const overrunning = ["blocker", "proceeder", "waiter"].map((name) => maintained.sandboxes[name]!);
    const results = await Promise.all(overrunning.map(async (one) => (await maintained.world.deps.store.checkpoints.listCheckpoints(one.id))[0]?.result));
    expect(results).toEqual(["TimedOut", "TimedOut", "TimedOut"]);
  });

  it("is Blocked while a sandbox with policy Block waits for an operator", () => {
    expect([run.state, stepOf(run, "blocker")]).toEqual(["Blocked", "WaitingForOperator"]);
  });

  it("keeps the blocked sandbox in its pod, protected", async () => {
    const pod = await maintained.world.deps.resources.readPod("default", "blocker");
    expect([pod?.metadata?.uid, await budgetMinAvailable(maintained.world, "blocker")]).toEqual([maintained.sandboxes.blocker!.podUid, 1]);
  });

  it("moves a sandbox whose policy is Proceed", () => {
    expect(stepOf(run, "proceeder")).toBe("Replaced");
  });

  it("moves a sandbox whose policy is ProceedAfterTimeout", () => {
    expect(stepOf(run, "waiter")).toBe("Replaced");
  });

  it("with ProceedAfterTimeout, waits out the grace period even when the hook fails at once", async () => {
    const id = maintained.sandboxes["fast-failer"]!.id;
    const [checkpoint] = await maintained.world.deps.store.checkpoints.listCheckpoints(id);
    const evicted = (await maintained.world.deps.store.timeline.listForSandbox(id, { limit: 100 })).find((event) => event.reason === "MaintenanceEvicted");
    expect(evicted!.occurredAt.getTime() - checkpoint!.startedAt.getTime()).toBeGreaterThanOrEqual(2_000);
  });
});

/** What a writer that stopped mid-run had saved: `guarded` evicting behind its relaxed budget, `saved` checkpointing. */
async function runLeftBehind(maintained: Maintained): Promise<MaintenanceRun> {
  const { world, sandboxes } = maintained;
  const { store, resources } = world.deps;
  const left = await maintenanceIn(world, { writer: { replica: "stopped", leading: () => false, fence: () => undefined } }).request("worker-1", OPTIONS);
  await store.maintenance.takeRun(left.id, "stopped-writer");
  const budget = { namespace: "default", name: podDisruptionBudgetName("guarded") };
  const saved = await store.checkpoints.startCheckpoint({ sandboxId: sandboxes.saved!.id, trigger: "Maintenance", startedAt: new Date(), podUid: sandboxes.saved!.podUid });
  await store.checkpoints.finishCheckpoint(saved.id, { result: "Succeeded", markerWritten: true }, new Date());
  const step = (name: string) => left.progress.sandboxes.find((entry) => entry.name === name)!;
  await store.maintenance.saveProgress(left.id, {
    sandboxes: [
      { ...step("guarded"), step: "Evicting", podUid: sandboxes.guarded!.podUid },
      { ...step("saved"), step: "Checkpointing" },
    ],
    pods: [],
  }, [budget]);
  await resources.setBudgetMinAvailable(budget.namespace, budget.name, 0);
  return left;
}

describe("a run whose writer stopped mid-run, taken up by the next writer", () => {
  let maintained: Maintained;
  let maintenance: Maintenance;
  let run: MaintenanceRun;
  beforeAll(async () => {
    maintained = await sandboxesOnWorker1({
      guarded: { disruptionPolicy: { checkpointHook: OK_HOOK, evictionProtection: true } },
      saved: { disruptionPolicy: { checkpointHook: OK_HOOK } },
    });
    const left = await runLeftBehind(maintained);
    maintenance = maintenanceIn(maintained.world);
    run = (await maintenance.runner.finished(left.id))!;
  }, 90_000);
  afterAll(async () => {
    maintenance?.runner.stop();
    await maintained?.world.stop();
  });

  it("is resumed, in a second attempt, and succeeds", () => {
    expect([run.state, run.attempts, run.runBy]).toEqual(["Succeeded", 2, "test-writer"]);
  });

  it("says on the timeline that it was resumed, and where it was", async () => {
    const told = await maintained.world.deps.store.timeline.listAfter({ limit: 1_000 });
    expect(told.find((event) => event.reason === "MaintenanceResumed")?.message).toContain("guarded: Evicting; saved: Checkpointing");
  });

  it("moves the sandbox it was evicting", async () => {
    const record = await maintained.world.deps.store.sandboxes.getSandbox(maintained.sandboxes.guarded!.id);
    expect([stepOf(run, "guarded"), record?.nodeName]).toEqual(["Replaced", "worker-2"]);
  });

  it("checkpoints no sandbox a second time", async () => {
    const checkpoints = await Promise.all(["guarded", "saved"].map((name) => maintained.world.deps.store.checkpoints.listCheckpoints(maintained.sandboxes[name]!.id)));
    expect(checkpoints.map((made) => made.length)).toEqual([0, 1]);
  });

  it("puts back the budget the stopped writer had relaxed", async () => {
    expect([await budgetMinAvailable(maintained.world, "guarded"), run.relaxedBudgets]).toEqual([1, []]);
  });
});

const SLOW_HOOK = { checkpointHook: ["sh", "-c", "sleep 200"], checkpointGracePeriodSeconds: 20, terminationGracePeriodSeconds: 30 };

describe("a run cancelled through another replica", () => {
  let maintained: Maintained;
  let maintenance: Maintenance;
  let run: MaintenanceRun;
  beforeAll(async () => {
    maintained = await sandboxesOnWorker1({ slow: { disruptionPolicy: SLOW_HOOK } });
    maintenance = maintenanceIn(maintained.world);
    const started = await maintenance.request("worker-1", OPTIONS);
    await eventually(async () => expect(stepOf((await maintained.world.deps.store.maintenance.getRun(started.id))!, "slow")).toBe("Checkpointing"));
    // What a replica that does not run it does with POST /api/v1/maintenance/{id}/cancel.
    await requestCancel(maintained.world.deps.store, started.id);
    run = (await maintenance.runner.finished(started.id))!;
  }, 60_000);
  afterAll(async () => {
    maintenance?.runner.stop();
    await maintained?.world.stop();
  });

  it("ends Cancelled without evicting anything", async () => {
    const pod = await maintained.world.deps.resources.readPod("default", "slow");
    expect([run.state, pod?.metadata?.uid]).toEqual(["Cancelled", maintained.sandboxes.slow!.podUid]);
  });

  it("cannot be cancelled again once it has ended", async () => {
    await expect(requestCancel(maintained.world.deps.store, run.id)).rejects.toThrow(SandboxStateError);
  });
});

describe("a run cancelled before any writer took it up", () => {
  let maintained: Maintained;
  let follower: Maintenance;
  let writer: Maintenance;
  let run: MaintenanceRun;
  beforeAll(async () => {
    maintained = await sandboxesOnWorker1({ idle: {} });
    follower = maintenanceIn(maintained.world, { writer: { replica: "follower", leading: () => false, fence: () => undefined } });
    const asked = await follower.request("worker-1", OPTIONS);
    await requestCancel(maintained.world.deps.store, asked.id);
    writer = maintenanceIn(maintained.world);
    run = (await writer.runner.finished(asked.id))!;
  }, 60_000);
  afterAll(async () => {
    follower?.runner.stop();
    writer?.runner.stop();
    await maintained?.world.stop();
  });

  it("ends Cancelled, having done nothing", () => {
    expect([run.state, stepOf(run, "idle")]).toEqual(["Cancelled", "Pending"]);
  });

  it("leaves the node schedulable", async () => {
    await maintained.world.reconciler.idle();
    expect(maintained.world.reconciler.nodeViews().find((node) => node.name === "worker-1")?.cordoned).toBe(false);
  });
});

describe("a run that finds one sandbox gone from the node and one blocked without protection", () => {
  let maintained: Maintained;
  let follower: Maintenance;
  let writer: Maintenance;
  let run: MaintenanceRun;
  const entryOf = (name: string) => run.progress.sandboxes.find((entry) => entry.name === name)!;
  beforeAll(async () => {
    maintained = await sandboxesOnWorker1({ gone: {}, stubborn: { disruptionPolicy: OVERRUNNING } });
    const { world, sandboxes } = maintained;
    follower = maintenanceIn(world, { writer: { replica: "follower", leading: () => false, fence: () => undefined } });
    const asked = await follower.request("worker-1", OPTIONS);
    // Planned with both on the node; one is stopped before the run reaches it.
    await setSandboxRunning(world.deps, sandboxes.gone!.id, false, anActor("alice"));
    await eventually(async () => expect(await world.deps.resources.readPod("default", "gone")).toBeNull(), { timeoutMs: 20_000 });
    writer = maintenanceIn(world);
    run = (await writer.runner.finished(asked.id))!;
  }, 90_000);
  afterAll(async () => {
    follower?.runner.stop();
    writer?.runner.stop();
    await maintained?.world.stop();
  });

  it("says the sandbox that left is no longer on the node, and does not hold the run up for it", () => {
    expect([entryOf("gone").step, entryOf("gone").message]).toEqual(["Left", expect.stringContaining("its pod is gone")]);
  });

  it("is Blocked by the other alone", () => {
    expect([run.state, run.message]).toEqual(["Blocked", expect.stringContaining("1 blocked")]);
  });

  it("calls the blocked sandbox protected only when a budget protects it, and offers only what can be done", () => {
    expect(entryOf("stubborn").message).toMatch(/keeps it on worker-1 and it was not evicted\. .* or stop the sandbox \(its claims are kept\)\.$/);
  });
});

describe("runs and replicas that do not write", () => {
  let maintained: Maintained;
  let follower: Maintenance;
  let leader: Maintenance;
  let leading = true;
  let first: MaintenanceRun;
  beforeAll(async () => {
    maintained = await sandboxesOnWorker1({ slow: { disruptionPolicy: SLOW_HOOK } });
    follower = maintenanceIn(maintained.world, { writer: { replica: "follower", leading: () => false, fence: () => undefined } });
    leader = maintenanceIn(maintained.world, { writer: { replica: "leader", leading: () => leading, fence: () => undefined } });
    first = await follower.request("worker-1", OPTIONS);
    await eventually(async () => expect(stepOf((await maintained.world.deps.store.maintenance.getRun(first.id))!, "slow")).toBe("Checkpointing"));
  }, 60_000);
  afterAll(async () => {
    leading = true;
    await maintained?.world.deps.store.maintenance.requestCancel(first.id);
    leader?.runner.poke();
    await leader?.runner.finished(first.id);
    leader?.runner.stop();
    follower?.runner.stop();
    await maintained?.world.stop();
  });

  it("is run by the writer, not by the replica that was asked", async () => {
    const run = await maintained.world.deps.store.maintenance.getRun(first.id);
    expect([run?.runBy, leader.runner.runs(first.id), follower.runner.runs(first.id)]).toEqual(["leader", true, false]);
  });

  it("refuses a second run on its node, naming the running one", async () => {
    await expect(leader.request("worker-1", OPTIONS)).rejects.toThrow(new MaintenanceConflictError("worker-1", first.id));
  });

  it("is left Running, for the next writer, by a writer deposed mid-run", async () => {
    leading = false;
    leader.runner.poke();
    await eventually(() => expect(leader.runner.runs(first.id)).toBe(false));
    expect((await maintained.world.deps.store.maintenance.getRun(first.id))?.state).toBe("Running");
  });
});
