// Planned maintenance on the embedded cluster: draining a node that holds 50 sandboxes, each
// checkpointed first. Berth's maintenance run is set against the slowest of the same sandboxes
// taken by hand one at a time (checkpoint, evict, wait for the replacement): a run that takes
// them all at once lasts about as long as that one. Once calm, once with the API server
// throttling the run's evictions (429 with Retry-After), which the run waits out and slows for.
// Where each sandbox's time went comes from the run's own timeline.
import { anActor } from "../lib/domain/test-fixtures.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { maintenanceOptionsSchema, type MaintenanceRun } from "../lib/domain/maintenance.ts";
import { nodeResources } from "../lib/kube/node-resources.ts";
import { checkpointSandbox } from "../lib/sandboxes/checkpoint-sandbox.ts";
import { maintenanceIn } from "../lib/sandboxes/testing/maintenance.ts";
import { startReconciledWorld, type ReconciledWorld } from "../lib/sandboxes/testing/reconciled-world.ts";
import type { ApiFault } from "../lib/sim/faults.ts";
import { eventually } from "../lib/sim/testing/eventually.ts";
import { openStore } from "../lib/store/index.ts";
import { median } from "./measure.ts";

const SANDBOXES = 50;
const HOOK = ["sh", "-c", "echo saved > /sandbox/saved.txt"];
/** The API server turns away this many of the run's evictions, asking for a second's wait each time. */
const THROTTLED_EVICTIONS: ApiFault = { verb: "create", resource: "pods", code: 429, retryAfterSeconds: 1, count: 20 };

/** Where a sandbox's time in a run went, from the run's start: checkpointed, evicted, replaced. */
export interface Phases {
  checkpointMs: number;
  evictionMs: number;
  replacementMs: number;
}

export interface RunFigures {
  runMs: number;
  /** Medians and worst, over the sandboxes, of each phase. */
  median: Phases;
  worst: Phases;
  throttled: number;
  fewestAtOnce: number;
}

export interface MaintenanceBenchResult {
  sandboxes: number;
  calm: RunFigures;
  throttled: RunFigures;
  throttledEvictions: number;
  /** The slowest sandbox taken by hand alone: checkpoint, eviction and replacement. */
  slowestSingleMs: number;
  oneByOneMs: number;
}

/** A two-worker cluster whose SANDBOXES sandboxes all run on worker-1. */
async function loadedNode(): Promise<{ world: ReconciledWorld; ids: string[] }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "berth-bench-maintenance-"));
  const world = await startReconciledWorld({ clockScale: 100, workers: 2, defaultStorageClass: "portable" }, async () => {
    const store = await openStore({ kind: "pglite", dataDir });
    return { store, cleanup: async () => { await store.close(); rmSync(dataDir, { recursive: true, force: true }); } };
  });
  world.sim.faults.setUnschedulable("worker-2", true);
  const ids = [];
  for (let i = 0; i < SANDBOXES; i++) ids.push((await world.readySandbox({ name: `load-${i}`, disruptionPolicy: { checkpointHook: HOOK } })).id);
  world.sim.faults.setUnschedulable("worker-2", false);
  await eventually(() => {
    if (world.reconciler.nodeViews().find((node) => node.name === "worker-2")?.cordoned !== false) throw new Error("worker-2 not seen uncordoned");
  });
  return { world, ids };
}

/** Each sandbox's phases, read from the Maintenance events the run put on its timeline. */
async function phasesOf(world: ReconciledWorld, run: MaintenanceRun, ids: string[]): Promise<Phases[]> {
  const began = run.startedAt.getTime();
  return Promise.all(
    ids.map(async (id) => {
      const events = await world.deps.store.timeline.listForSandbox(id, { limit: 100 });
      const at = (reason: string) => events.find((event) => event.reason === reason && event.data?.runId === run.id)?.occurredAt.getTime() ?? NaN;
      const [checkpointed, evicted, replaced] = [at("MaintenanceCheckpointed"), at("MaintenanceEvicted"), at("MaintenanceReplaced")];
      return { checkpointMs: checkpointed - began, evictionMs: evicted - checkpointed, replacementMs: replaced - evicted };
    }),
  );
}

const over = (phases: Phases[], pick: (values: number[]) => number): Phases => ({
  checkpointMs: pick(phases.map((one) => one.checkpointMs)),
  evictionMs: pick(phases.map((one) => one.evictionMs)),
  replacementMs: pick(phases.map((one) => one.replacementMs)),
});

async function maintenanceRun(fault?: ApiFault): Promise<RunFigures> {
  const { world, ids } = await loadedNode();
  try {
    const maintenance = maintenanceIn(world, { retryMs: 200 });
    if (fault) world.sim.faults.injectApiFault(fault);
    const began = performance.now();
    const run = await maintenance.runToEnd("worker-1", maintenanceOptionsSchema.parse({ replacementTimeoutSeconds: 120 }), anActor("bench")).finally(() => maintenance.runner.stop());
    const runMs = performance.now() - began;
    if (run?.state !== "Succeeded") throw new Error(`the maintenance run ended ${run?.state}: ${run?.message}`);
    const phases = await phasesOf(world, run, ids);
    const finished = (await world.deps.store.timeline.listAfter({ limit: 10_000 })).find((event) => event.reason === "MaintenanceSucceeded" && event.data?.runId === run.id);
    const pace = finished?.data?.pace as { throttled: number; fewestAtOnce: number };
    return { runMs, median: over(phases, median), worst: over(phases, (values) => Math.max(...values)), ...pace };
  } finally {
    await world.stop();
  }
}

async function oneByOne(): Promise<{ totalMs: number; slowestMs: number }> {
  const { world, ids } = await loadedNode();
  try {
    const nodes = nodeResources(world.deps.connection);
    const began = performance.now();
    await nodes.setUnschedulable("worker-1", true);
    let slowestMs = 0;
    for (const id of ids) {
      const one = performance.now();
      const before = (await world.deps.store.sandboxes.getSandbox(id))!;
      await checkpointSandbox(world.deps, id, "Manual", anActor("bench"));
      await nodes.evictPod(before.namespace, before.name);
      await world.recordWhen(id, (record) => {
        if (record.phase !== "Ready" || record.podUid === before.podUid) throw new Error("not replaced yet");
      }, 120_000);
      slowestMs = Math.max(slowestMs, performance.now() - one);
    }
    return { totalMs: performance.now() - began, slowestMs };
  } finally {
    await world.stop();
  }
}

export async function benchMaintenance(): Promise<MaintenanceBenchResult> {
  const calm = await maintenanceRun();
  const throttled = await maintenanceRun(THROTTLED_EVICTIONS);
  const single = await oneByOne();
  return { sandboxes: SANDBOXES, calm, throttled, throttledEvictions: THROTTLED_EVICTIONS.count!, slowestSingleMs: single.slowestMs, oneByOneMs: single.totalMs };
}
