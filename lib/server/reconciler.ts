import type { ServerConfig } from "../config/index.ts";
import { discoverSandboxApi } from "../kube/cluster-connection.ts";
import type { LiveSandboxes } from "../sandboxes/live-sandboxes.ts";
import type { OperationsInFlight } from "../sandboxes/operations-in-flight.ts";
import { StatusReconciler } from "../sandboxes/status-reconciler.ts";
import { MaintenanceRunner } from "../sandboxes/maintenance-runner.ts";
import { sandboxResources } from "../kube/sandbox-resources.ts";
import type { Store } from "../store/index.ts";
import type { RuntimeCluster } from "./cluster.ts";
import type { Leadership } from "./leadership.ts";
import { watchScope } from "./managed-namespaces.ts";
import { logOf } from "../platform/logger.ts";

// Starts the status reconciler — and the maintenance runner, which reads what it watches — once
// per server process, in the background: a slow or unreachable cluster must not hold up the
// console, and a cluster without the agent-sandbox CRDs gets them as soon as they are served.
// Every replica runs the reconciler, for its caches and reads; only the leader (`leadership`)
// writes, and only the leader runs maintenance: it takes up every stored run no replica runs,
// new or left behind by a leader that stopped, and resumes it where it was.

const RETRY_MS = 30_000;

export interface RunningReconciler {
  /** The reconciler once its watches have synced; null before (or with no cluster to watch). */
  current(): StatusReconciler | null;
  /** The maintenance runner, with the reconciler. */
  maintenance(): MaintenanceRunner | null;
  stop(): void;
}

export function startReconciler(
  config: ServerConfig,
  store: Store,
  cluster: RuntimeCluster,
  shared: { inFlight: OperationsInFlight; live: LiveSandboxes; checkpointing: OperationsInFlight },
  leadership: Leadership,
  replica: string,
): RunningReconciler {
  let stopped = false;
  let reconciler: StatusReconciler | undefined;
  let maintenance: MaintenanceRunner | undefined;
  let retry: NodeJS.Timeout | undefined;
  let stopHearingLeadership = () => {};
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
      namespaces: watchScope(config.namespaces),
      ...shared,
      leading: () => leadership.leading(),
      fence: () => leadership.fence(),
      onError: (error) => logOf("reconciler").warn({ err: error }, "reconciling failed; retrying with backoff"),
    });
    const current = reconciler;
    // Heard from before the start, so that no change of leader falls between.
    stopHearingLeadership = leadership.onChange(() => {
      current.leadershipChanged();
      maintenance?.poke();
    });
    await reconciler.start();
    maintenance = new MaintenanceRunner({
      store,
      connection: cluster.connection,
      resources: sandboxResources(cluster.connection, discovery.version),
      sandboxApiVersion: discovery.version,
      defaults: config.gateway,
      ...shared,
      writer: { replica, leading: () => leadership.leading(), fence: () => leadership.fence() },
      onError: (error) => logOf("maintenance").warn({ err: error }, "a maintenance run failed a step; retrying"),
    });
    if (stopped) return;
    maintenance.start();
  };
  void attempt().catch((error: unknown) => logOf("reconciler").error({ err: error }, "the status reconciler could not start"));
  return {
    current: () => (reconciler?.started ? reconciler : null),
    maintenance: () => maintenance ?? null,
    stop() {
      stopped = true;
      clearTimeout(retry);
      stopHearingLeadership();
      maintenance?.stop();
      reconciler?.stop();
    },
  };
}
