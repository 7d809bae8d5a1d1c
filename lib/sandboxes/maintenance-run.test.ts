import { anActor } from "../domain/test-fixtures.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MaintenanceRun } from "../domain/maintenance.ts";
import { maintenanceOptionsSchema } from "../domain/maintenance.ts";
import type { SandboxRecord } from "../domain/sandbox-record.ts";
import { podDisruptionBudgetName } from "../render/pod-disruption-budget.ts";
import { eventually } from "../sim/testing/eventually.ts";
import { MaintenanceConflictError, MaintenanceRunner } from "./maintenance-run.ts";
import { OperationsInFlight } from "./operations-in-flight.ts";
import { startReconciledWorld, type ReconciledWorld } from "./testing/reconciled-world.ts";

// Planned maintenance of a node against the embedded cluster (portable storage, two workers):
// checkpoint, obey each sandbox's checkpoint failure policy, relax a budget only for its own
// eviction, move the sandboxes, put the budgets back — and a run a stopped console left behind.

const OPTIONS = maintenanceOptionsSchema.parse({ evictionTimeoutSeconds: 5, replacementTimeoutSeconds: 20 });
const OK_HOOK = ["sh", "-c", "echo saved > /sandbox/saved.txt"];
/** A hook that outlives its one-second deadline (simulated seconds run faster, but not 3600 times). */
const OVERRUNNING = { checkpointHook: ["sh", "-c", "sleep 3600"], checkpointGracePeriodSeconds: 1, terminationGracePeriodSeconds: 30 };

interface Maintained {
  world: ReconciledWorld;
  runner: MaintenanceRunner;
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
  const runner = new MaintenanceRunner({ ...world.deps, preview: (node) => world.reconciler.maintenancePreview(node), retryMs: 50 });
  return { world, runner, sandboxes };
}

const stepOf = (run: MaintenanceRun, name: string) => run.progress.sandboxes.find((entry) => entry.name === name)?.step;
const budgetMinAvailable = async (world: ReconciledWorld, name: string) => (await world.deps.resources.readBudget("default", podDisruptionBudgetName(name)))?.spec?.minAvailable;

describe("maintenance of a node whose sandboxes checkpoint fine", () => {
  let maintained: Maintained;
  let run: MaintenanceRun;
  beforeAll(async () => {
    maintained = await sandboxesOnWorker1({
      plain: { disruptionPolicy: { checkpointHook: OK_HOOK } },
      guarded: { disruptionPolicy: { checkpointHook: OK_HOOK, evictionProtection: true } },
    });
    const started = await maintained.runner.start("worker-1", OPTIONS, anActor("ops"), maintained.world.deps.connection);
    run = (await maintained.runner.finished(started.id))!;
  }, 90_000);
  afterAll(() => maintained?.world.stop());

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

  it("puts the protected sandbox's budget back once its replacement is Ready", async () => {
    expect([await budgetMinAvailable(maintained.world, "guarded"), run.relaxedBudgets]).toEqual([1, []]);
  });

  it("leaves the node cordoned", async () => {
    expect(maintained.world.reconciler.nodeViews().find((node) => node.name === "worker-1")?.cordoned).toBe(true);
  });
});

describe("maintenance when checkpoint hooks overrun their deadline", () => {
  let maintained: Maintained;
  let run: MaintenanceRun;
  beforeAll(async () => {
    maintained = await sandboxesOnWorker1({
      blocker: { disruptionPolicy: { ...OVERRUNNING, evictionProtection: true } },
      proceeder: { disruptionPolicy: { ...OVERRUNNING, checkpointFailurePolicy: "Proceed" } },
      waiter: { disruptionPolicy: { ...OVERRUNNING, checkpointFailurePolicy: "ProceedAfterTimeout" } },
      "fast-failer": { disruptionPolicy: { checkpointHook: ["sh", "-c", "exit 1"], checkpointGracePeriodSeconds: 2, terminationGracePeriodSeconds: 30, checkpointFailurePolicy: "ProceedAfterTimeout" } },
    });
    const started = await maintained.runner.start("worker-1", OPTIONS, anActor("ops"), maintained.world.deps.connection);
    run = (await maintained.runner.finished(started.id))!;
  }, 90_000);
  afterAll(() => maintained?.world.stop());

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

describe("a run a stopped console left behind", () => {
  let maintained: Maintained;
  let closed: MaintenanceRun[];
  beforeAll(async () => {
    maintained = await sandboxesOnWorker1({ guarded: { disruptionPolicy: { evictionProtection: true } } });
    const { store, resources } = maintained.world.deps;
    // What the stopped console had done: started, relaxed the budget, then nothing more.
    const left = await store.maintenance.startRun({ node: "worker-1", actor: anActor("ops"), options: OPTIONS, startedAt: new Date() });
    const budget = { namespace: "default", name: podDisruptionBudgetName("guarded") };
    await store.maintenance.saveProgress(left.id, { sandboxes: [{ sandboxId: maintained.sandboxes.guarded!.id, name: "guarded", namespace: "default", step: "Evicting", message: "", checkpointId: null }], pods: [] }, [budget]);
    await resources.setBudgetMinAvailable(budget.namespace, budget.name, 0);
    closed = await maintained.runner.closeInterrupted();
  }, 60_000);
  afterAll(() => maintained?.world.stop());

  it("is closed as Interrupted, saying where it stopped", () => {
    expect([closed[0]?.state, closed[0]?.message]).toEqual(["Interrupted", expect.stringContaining("guarded: Evicting")]);
  });

  it("never leaves a budget relaxed", async () => {
    expect(await budgetMinAvailable(maintained.world, "guarded")).toBe(1);
  });
});

describe("a cancelled run", () => {
  let maintained: Maintained;
  let run: MaintenanceRun;
  beforeAll(async () => {
    maintained = await sandboxesOnWorker1({ slow: { disruptionPolicy: { checkpointHook: ["sh", "-c", "sleep 200"], checkpointGracePeriodSeconds: 20, terminationGracePeriodSeconds: 30 } } });
    const started = await maintained.runner.start("worker-1", OPTIONS, anActor("ops"), maintained.world.deps.connection);
    maintained.runner.cancel(started.id);
    run = (await maintained.runner.finished(started.id))!;
  }, 60_000);
  afterAll(() => maintained?.world.stop());

  it("ends Cancelled without evicting anything", async () => {
    const pod = await maintained.world.deps.resources.readPod("default", "slow");
    expect([run.state, pod?.metadata?.uid]).toEqual(["Cancelled", maintained.sandboxes.slow!.podUid]);
  });
});

describe("a run in flight, seen from another replica", () => {
  let maintained: Maintained;
  let first: MaintenanceRun;
  let otherReplica: MaintenanceRunner;
  beforeAll(async () => {
    maintained = await sandboxesOnWorker1({ slow: { disruptionPolicy: { checkpointHook: ["sh", "-c", "sleep 200"], checkpointGracePeriodSeconds: 20, terminationGracePeriodSeconds: 30 } } });
    const { world } = maintained;
    const replica = (name: string) => new MaintenanceRunner({
      ...world.deps,
      maintenanceRuns: new OperationsInFlight({ kind: "maintenance", replica: name, operations: world.deps.store.operations }),
      preview: (node) => world.reconciler.maintenancePreview(node),
      retryMs: 50,
    });
    maintained.runner = replica("replica-a");
    otherReplica = replica("replica-b");
    first = await maintained.runner.start("worker-1", OPTIONS, anActor("ops"), world.deps.connection);
  }, 60_000);
  afterAll(async () => {
    maintained?.runner.cancel(first.id);
    await maintained?.runner.finished(first.id);
    await maintained?.world.stop();
  });

  it("refuses a second run on its node, naming the running one", async () => {
    await expect(otherReplica.start("worker-1", OPTIONS, anActor("ops"), maintained.world.deps.connection)).rejects.toThrow(new MaintenanceConflictError("worker-1", first.id));
  });

  it("is not closed as one a stopped console left behind when another replica starts", async () => {
    const closed = await otherReplica.closeInterrupted();
    expect({ closed: closed.map((run) => run.id), state: (await maintained.world.deps.store.maintenance.getRun(first.id))?.state }).toEqual({ closed: [], state: "Running" });
  });
});
