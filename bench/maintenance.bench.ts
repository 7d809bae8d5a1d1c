// Planned maintenance on the embedded cluster: draining a node that holds 50 sandboxes, each
// checkpointed first, with Berth's maintenance run against doing the same by hand one sandbox at
// a time (checkpoint, evict, wait for the replacement, next). Same cluster shape, same sandboxes.
import { anActor } from "../lib/domain/test-fixtures.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { maintenanceOptionsSchema } from "../lib/domain/maintenance.ts";
import { nodeResources } from "../lib/kube/node-resources.ts";
import { checkpointSandbox } from "../lib/sandboxes/checkpoint-sandbox.ts";
import { maintenanceIn } from "../lib/sandboxes/testing/maintenance.ts";
import { startReconciledWorld, type ReconciledWorld } from "../lib/sandboxes/testing/reconciled-world.ts";
import { eventually } from "../lib/sim/testing/eventually.ts";
import { openStore } from "../lib/store/index.ts";

const SANDBOXES = 50;
const HOOK = ["sh", "-c", "echo saved > /sandbox/saved.txt"];

export interface MaintenanceBenchResult {
  sandboxes: number;
  maintenanceRunMs: number;
  oneByOneMs: number;
  parallelism: number;
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

export async function benchMaintenance(): Promise<MaintenanceBenchResult> {
  const options = maintenanceOptionsSchema.parse({ replacementTimeoutSeconds: 120 });
  let maintenanceRunMs: number;
  {
    const { world } = await loadedNode();
    try {
      const maintenance = maintenanceIn(world, { retryMs: 200 });
      const began = performance.now();
      const run = await maintenance.runToEnd("worker-1", options, anActor("bench")).finally(() => maintenance.runner.stop());
      maintenanceRunMs = performance.now() - began;
      if (run?.state !== "Succeeded") throw new Error(`the maintenance run ended ${run?.state}: ${run?.message}`);
    } finally {
      await world.stop();
    }
  }
  let oneByOneMs: number;
  {
    const { world, ids } = await loadedNode();
    try {
      const nodes = nodeResources(world.deps.connection);
      const began = performance.now();
      await nodes.setUnschedulable("worker-1", true);
      for (const id of ids) {
        const before = (await world.deps.store.sandboxes.getSandbox(id))!;
        await checkpointSandbox(world.deps, id, "Manual", anActor("bench"));
        await nodes.evictPod(before.namespace, before.name);
        await world.recordWhen(id, (record) => {
          if (record.phase !== "Ready" || record.podUid === before.podUid) throw new Error("not replaced yet");
        }, 120_000);
      }
      oneByOneMs = performance.now() - began;
    } finally {
      await world.stop();
    }
  }
  return { sandboxes: SANDBOXES, maintenanceRunMs, oneByOneMs, parallelism: options.parallelism };
}
