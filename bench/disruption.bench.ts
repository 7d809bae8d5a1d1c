// Disruptions on the embedded cluster: from an eviction through the Eviction API to the
// sandbox's Disruption event on the bus (what GET /api/v1/events sends), for sandboxes spread
// over the workers, one eviction at a time so each delay is its own.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { CoreV1Api } from "@kubernetes/client-node";
import { openStore } from "../lib/store/index.ts";
import { subscribeToTimeline } from "../lib/events/event-bus.ts";
import { startReconciledWorld } from "../lib/sandboxes/testing/reconciled-world.ts";

const SANDBOXES = 40;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
};

export interface DisruptionBenchResult {
  evictions: number;
  evictionToEventMedianMs: number;
  evictionToEventP99Ms: number;
}

export async function benchDisruption(): Promise<DisruptionBenchResult> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "berth-bench-disruption-"));
  const openBenchStore = async () => {
    const store = await openStore({ kind: "pglite", dataDir });
    return { store, cleanup: async () => { await store.close(); rmSync(dataDir, { recursive: true, force: true }); } };
  };
  const world = await startReconciledWorld({ clockScale: 100, workers: 3, defaultStorageClass: "portable" }, openBenchStore);
  try {
    const core = world.deps.connection.kubeConfig.makeApiClient(CoreV1Api);
    const records = [];
    for (let i = 0; i < SANDBOXES; i++) records.push(await world.readySandbox({ name: `evict-${i}` }));
    await world.reconciler.idle();
    const delays: number[] = [];
    for (const record of records) {
      const seen = new Promise<number>((resolve) => {
        const unsubscribe = subscribeToTimeline((event) => {
          if (event.sandboxId !== record.id || event.type !== "Disruption") return;
          unsubscribe();
          resolve(performance.now());
        });
      });
      const began = performance.now();
      await core.createNamespacedPodEviction({ namespace: "default", name: record.name, body: { apiVersion: "policy/v1", kind: "Eviction", metadata: { name: record.name, namespace: "default" } } });
      delays.push((await seen) - began);
    }
    return { evictions: delays.length, evictionToEventMedianMs: percentile(delays, 0.5), evictionToEventP99Ms: percentile(delays, 0.99) };
  } finally {
    await world.stop();
  }
}
