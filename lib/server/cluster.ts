import path from "node:path";
import type { ServerConfig } from "../config/index.ts";
import { connectToEmbeddedCluster, connectToRealCluster, type ClusterConnection } from "../kube/cluster-connection.ts";

// Opens the cluster the configuration names. The embedded simulated cluster is the one place the
// product starts lib/sim; it is imported only here, and only when no real cluster is configured.

export interface RuntimeCluster {
  connection: ClusterConnection;
  stop(): Promise<void>;
}

export async function openCluster(config: ServerConfig): Promise<RuntimeCluster> {
  if (config.cluster.mode !== "embedded") {
    return { connection: connectToRealCluster(config.cluster.mode, config.cluster.kubeconfig), stop: async () => {} };
  }
  const { startSimulatedCluster } = await import("../sim/index.ts");
  const simulated = await startSimulatedCluster({ dataDir: path.join(config.dataDir, "cluster"), ...config.simulator });
  return { connection: connectToEmbeddedCluster(simulated.serverUrl), stop: () => simulated.stop() };
}
