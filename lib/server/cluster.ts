import path from "node:path";
import type { ServerConfig } from "../config/index.ts";
import { connectToEmbeddedCluster, connectToRealCluster, type ClusterConnection } from "../kube/cluster-connection.ts";

// Opens the cluster the configuration names. The embedded simulated cluster is the one place the
// product starts lib/sim; it is imported only here, and only when no real cluster is configured.

export interface RuntimeCluster {
  connection: ClusterConnection;
  /** The embedded cluster's address, where its fault API (/sim/v1) is served; null on a real cluster. */
  simulatorUrl: string | null;
  stop(): Promise<void>;
}

export async function openCluster(config: ServerConfig): Promise<RuntimeCluster> {
  if (config.cluster.mode !== "embedded") {
    return { connection: connectToRealCluster(config.cluster.mode, config.cluster.kubeconfig), simulatorUrl: null, stop: async () => {} };
  }
  const { startSimulatedCluster } = await import("../sim/index.ts");
  // A run-time path: not for Next.js's file tracing (see loadServerConfig).
  const simulated = await startSimulatedCluster({ dataDir: path.join(/* turbopackIgnore: true */ config.dataDir, "cluster"), ...config.simulator });
  return { connection: connectToEmbeddedCluster(simulated.serverUrl), simulatorUrl: simulated.serverUrl, stop: () => simulated.stop() };
}
