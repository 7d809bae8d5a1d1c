// Store workloads: fixed counts, per-operation medians and p95, PGlite against PostgreSQL.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openStore, type Store } from "../lib/store/index.ts";
import { measure, type Measurement } from "./measure.ts";

const SANDBOXES = 200;
const EVENTS = 500;
const REPLAYS = 100;

async function workloads(store: Store): Promise<Measurement[]> {
  const namespace = `bench-${Date.now()}`;
  const ids: string[] = [];
  const record = await measure("recordSandbox", SANDBOXES, async (i) => {
    ids.push((await store.sandboxes.recordSandbox({ name: `box-${i}`, namespace, spec: { profile: "generic" }, workspaceBackend: "pvc" })).id);
  });
  const status = await measure("saveStatus", SANDBOXES, async (i) => {
    await store.sandboxes.saveStatus(ids[i]!, {
      phase: "Ready", reason: null, message: null, conditions: [{ type: "Ready", status: "True", lastTransitionTime: new Date().toISOString() }],
      nodeName: "worker-1", podName: `box-${i}`, podUid: `uid-${i}`, previousNodeName: null, previousPodUid: null, details: {},
    });
  });
  const append = await measure("appendEvent", EVENTS, async (i) => {
    await store.timeline.appendEvent({ sandboxId: ids[i % ids.length]!, type: "Lifecycle", reason: "Ready", message: "pod ready", occurredAt: new Date(), data: { i } });
  });
  const replay = await measure("listAfter(100)", REPLAYS, async () => {
    await store.timeline.listAfter({ limit: 100 });
  });
  const page = await measure("listSandboxes(50)", REPLAYS, async () => {
    await store.sandboxes.listSandboxes({ limit: 50, namespace });
  });
  return [record, status, append, replay, page];
}

export async function benchStore(postgresUrl: string | undefined) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "berth-bench-"));
  const openBegan = performance.now();
  const pglite = await openStore({ kind: "pglite", dataDir });
  const pgliteOpenMs = performance.now() - openBegan;
  const results: { backend: string; measurements: Measurement[] }[] = [];
  try {
    results.push({ backend: "pglite", measurements: await workloads(pglite) });
  } finally {
    await pglite.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (postgresUrl) {
    const postgres = await openStore({ kind: "postgresql", databaseUrl: postgresUrl });
    try {
      results.push({ backend: "postgresql", measurements: await workloads(postgres) });
    } finally {
      await postgres.close();
    }
  }
  return { pgliteOpenMs, results };
}
