import type { Health } from "../domain/health.ts";
import { discoverSandboxApi } from "../kube/cluster-connection.ts";
import type { Runtime } from "./runtime.ts";

const VERSION = process.env.npm_package_version ?? "0.1.0";

const recent = new WeakMap<Runtime, { at: number; health: Promise<Health> }>();

/**
 * Probes the store and the cluster. `maxAgeMs` lets a caller that renders on every page view
 * (the header's badges) reuse a recent answer instead of asking the cluster each time.
 */
export function checkHealth(runtime: Runtime, { maxAgeMs = 0 } = {}): Promise<Health> {
  const cached = recent.get(runtime);
  if (cached && Date.now() - cached.at <= maxAgeMs) return cached.health;
  const health = probe(runtime);
  recent.set(runtime, { at: Date.now(), health });
  return health;
}

async function probe(runtime: Runtime): Promise<Health> {
  let store: Health["store"];
  try {
    await runtime.store.ping();
    store = { kind: runtime.store.kind, ok: true, message: "The store answers queries." };
  } catch (error) {
    store = { kind: runtime.store.kind, ok: false, message: `The store does not answer: ${(error as Error).message}` };
  }
  const { connection } = runtime.cluster;
  const discovery = await discoverSandboxApi(connection);
  const cluster: Health["cluster"] = {
    mode: connection.mode,
    server: connection.server,
    sandboxApiVersion: discovery.ok ? discovery.version : null,
    connected: discovery.ok || discovery.reason === "not-installed",
    message: discovery.ok
      ? `Connected; the cluster serves agents.x-k8s.io/${discovery.version} Sandboxes.${connection.mode === "embedded" ? " This is Berth's embedded simulated cluster, a demo and test double." : ""}`
      : discovery.message,
  };
  const status = !store.ok ? "failing" : discovery.ok ? "ok" : "degraded";
  return { status, version: VERSION, startedAt: runtime.startedAt.toISOString(), cluster, store };
}
