import type { ServerConfig } from "../config/index.ts";
import { discoverSandboxApi } from "../kube/cluster-connection.ts";
import type { LiveSandboxes } from "../sandboxes/live-sandboxes.ts";
import type { OperationsInFlight } from "../sandboxes/operations-in-flight.ts";
import { StatusReconciler } from "../sandboxes/status-reconciler.ts";
import type { Store } from "../store/index.ts";
import type { RuntimeCluster } from "./cluster.ts";

// Starts the status reconciler once per server process, in the background: a slow or
// unreachable cluster must not hold up the console, and a cluster without the agent-sandbox
// CRDs gets a reconciler as soon as they are served.

const RETRY_MS = 30_000;

export interface RunningReconciler {
  /** The reconciler once its watches have synced; null before (or with no cluster to watch). */
  current(): StatusReconciler | null;
  stop(): void;
}

export function startReconciler(config: ServerConfig, store: Store, cluster: RuntimeCluster, shared: { inFlight: OperationsInFlight; live: LiveSandboxes; checkpointing: OperationsInFlight }): RunningReconciler {
  let stopped = false;
  let reconciler: StatusReconciler | undefined;
  let retry: NodeJS.Timeout | undefined;
  const attempt = async () => {
    const discovery = await discoverSandboxApi(cluster.connection);
    if (stopped) return;
    if (!discovery.ok) {
      retry = setTimeout(() => void attempt(), RETRY_MS);
      retry.unref?.();
      return;
    }
    reconciler = new StatusReconciler({
      connection: cluster.connection,
      store,
      sandboxApiVersion: discovery.version,
      labelPrefix: config.gateway.labelPrefix,
      workspaceMountPath: config.gateway.workspaceMountPath,
      ...shared,
      onError: (error) => console.warn(`berth: status reconciler: ${(error as Error)?.message ?? String(error)}`),
    });
    await reconciler.start();
  };
  void attempt().catch((error: unknown) => console.error("berth: the status reconciler could not start", error));
  return {
    current: () => (reconciler?.started ? reconciler : null),
    stop() {
      stopped = true;
      clearTimeout(retry);
      reconciler?.stop();
    },
  };
}
