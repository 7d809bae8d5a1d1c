import path from "node:path";
import type { ServerConfig } from "../config/index.ts";
import { accessObjects } from "../kube/access-objects.ts";
import { connectToEmbeddedCluster, connectToRealCluster, useToken, type ClusterConnection } from "../kube/cluster-connection.ts";
import { BERTH_NAMESPACE, BERTH_SERVICE_ACCOUNT, seedEmbeddedCluster } from "./embedded-cluster-seed.ts";
import { logOf } from "../platform/logger.ts";

// Opens the cluster the configuration names. The embedded simulated cluster is the one place the
// product starts lib/sim; it is imported only here, and only when no real cluster is configured.
// On it, Berth runs as a real installation would: as its own service account, with the chart's
// permissions, the admin token used only to set that up.

export interface RuntimeCluster {
  /** As Berth's own identity. */
  connection: ClusterConnection;
  /** The embedded cluster's address, where its fault API (/sim/v1) is served; null on a real cluster. */
  simulatorUrl: string | null;
  stop(): Promise<void>;
}

const TOKEN_SECONDS = 24 * 3600;

export async function openCluster(config: ServerConfig): Promise<RuntimeCluster> {
  if (config.cluster.mode !== "embedded") {
    return { connection: connectToRealCluster(config.cluster.mode, config.cluster.kubeconfig), simulatorUrl: null, stop: async () => {} };
  }
  const { startSimulatedCluster } = await import("../sim/index.ts");
  // A run-time path: not for Next.js's file tracing (see loadServerConfig).
  const simulated = await startSimulatedCluster({ dataDir: path.join(/* turbopackIgnore: true */ config.dataDir, "cluster"), ...config.simulator });
  try {
    const admin = connectToEmbeddedCluster(simulated.serverUrl, simulated.adminToken);
    await seedEmbeddedCluster(admin, { managedLabel: config.namespaces.kind === "labelled" ? config.namespaces.label : null, auth: config.auth });
    const objects = accessObjects(admin);
    const issue = () => objects.requestToken(BERTH_NAMESPACE, BERTH_SERVICE_ACCOUNT, TOKEN_SECONDS);
    const connection = connectToEmbeddedCluster(simulated.serverUrl, (await issue()).token);
    // Renewed at half its life, as the kubelet renews projected service-account tokens.
    const renewal = setInterval(() => {
      issue()
        .then(({ token }) => useToken(connection, token))
        .catch((error: unknown) => logOf("cluster").error({ err: error }, "renewing Berth's token on the embedded cluster failed"));
    }, (TOKEN_SECONDS / 2) * 1000);
    renewal.unref();
    return {
      connection,
      simulatorUrl: simulated.serverUrl,
      stop: () => {
        clearInterval(renewal);
        return simulated.stop();
      },
    };
  } catch (error) {
    await simulated.stop();
    throw error;
  }
}
