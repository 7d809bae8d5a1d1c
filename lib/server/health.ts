import type { Health } from "../domain/health.ts";
import type { Runtime } from "./runtime.ts";

const VERSION = process.env.npm_package_version ?? "0.1.0";

/** Probes what can be probed now; the cluster connection is reported as it stands. */
export async function checkHealth(runtime: Runtime): Promise<Health> {
  let store: Health["store"];
  try {
    await runtime.store.ping();
    store = { kind: runtime.store.kind, ok: true, message: "The store answers queries." };
  } catch (error) {
    store = { kind: runtime.store.kind, ok: false, message: `The store does not answer: ${(error as Error).message}` };
  }
  const cluster: Health["cluster"] = {
    mode: runtime.config.cluster.mode,
    server: null,
    sandboxApiVersion: null,
    connected: false,
    message: "This version of Berth does not connect to a Kubernetes cluster yet: the driver is not built.",
  };
  const status = !store.ok ? "failing" : cluster.connected ? "ok" : "degraded";
  return { status, version: VERSION, startedAt: runtime.startedAt.toISOString(), cluster, store };
}
