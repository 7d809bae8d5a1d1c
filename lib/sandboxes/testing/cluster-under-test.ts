// The cluster a driver-suite test runs against: the embedded simulated cluster by default, or a
// real control plane when BERTH_TEST_KUBECONFIG names one (`npm run test:cluster` starts one and
// sets it). Tests reach either only through a kubeconfig and @kubernetes/client-node, the way
// Berth reaches a user's cluster; what differs between the two is said here, once.
//
// Two identities: Berth's (BERTH_TEST_KUBECONFIG: cluster-admin, or the service account of
// Berth's Helm chart, to prove its RBAC) and the operator's who drains and evicts
// (BERTH_TEST_OPERATOR_KUBECONFIG, the same file when unset), so that what the operator does is
// never taken for something Berth was allowed to do.
import { connectToEmbeddedCluster, connectToRealCluster, type ClusterConnection } from "../../kube/cluster-connection.ts";
import { kubeconfigPath as simKubeconfigPath, startSimulatedCluster } from "../../sim/index.ts";
import { LOCAL_PATH_CLASS, PORTABLE_CLASS } from "../../sim/storage-topology.ts";
import { SANDBOX_CONTROLLER_VERSION } from "../../sim/controllers/agent-sandbox-controller.ts";
import { eventually } from "../../sim/testing/eventually.ts";

export interface ClusterUnderTest {
  /** How the suite's output names this cluster. */
  description: string;
  /** As Berth. */
  connection: ClusterConnection;
  /** As the cluster's operator, for kubectl's work. */
  operatorConnection: ClusterConnection;
  /** Berth's kubeconfig, for a Berth process of its own; null for an embedded cluster started without a data directory. */
  kubeconfigPath: string | null;
  /** The two worker nodes sandboxes run on. */
  workers: [string, string];
  /** Why commands cannot run in a container here, or null where they can. */
  execUnavailable: string | null;
  storageClasses: { nodePinned: string; portable: string };
  /** The agent-sandbox release whose controller runs there: the conditions it writes differ between releases. */
  agentSandboxVersion: string;
  /** How long to wait for the cluster to do something: a real one runs on real time. */
  patienceMs: number;
  /**
   * Resolves once `resumed()` says the watches open now were ended by the API server and taken
   * up again. A real apiserver ends every watch on its own within its request timeout; the
   * embedded one is told to drop them.
   */
  endWatches(resumed: () => boolean): Promise<void>;
  stop(): Promise<void>;
}

export const REAL_CLUSTER_KUBECONFIG = "BERTH_TEST_KUBECONFIG";
export const REAL_CLUSTER_OPERATOR_KUBECONFIG = "BERTH_TEST_OPERATOR_KUBECONFIG";
/** The agent-sandbox release the real cluster runs; unset: the one the embedded cluster follows. */
export const REAL_CLUSTER_AGENT_SANDBOX_VERSION = "BERTH_TEST_AGENT_SANDBOX_VERSION";

/** The embedded cluster: in `dataDir` (where it writes its kubeconfig), its clock `clockScale` times real time. */
export interface EmbeddedClusterOptions {
  dataDir?: string;
  clockScale?: number;
}

export async function startClusterUnderTest(embedded: EmbeddedClusterOptions = {}): Promise<ClusterUnderTest> {
  const kubeconfigPath = process.env[REAL_CLUSTER_KUBECONFIG];
  if (kubeconfigPath) {
    return {
      description: `the real control plane of ${kubeconfigPath}`,
      connection: connectToRealCluster("kubeconfig", kubeconfigPath),
      operatorConnection: connectToRealCluster("kubeconfig", process.env[REAL_CLUSTER_OPERATOR_KUBECONFIG] || kubeconfigPath),
      kubeconfigPath,
      execUnavailable: "kwok's nodes run no containers, so there is nothing to exec into and no workspace file to read",
      // scripts/cluster/cluster-fixtures.ts makes these workers and classes.
      workers: ["berth-worker-a", "berth-worker-b"],
      storageClasses: { nodePinned: "local-path", portable: "portable" },
      agentSandboxVersion: process.env[REAL_CLUSTER_AGENT_SANDBOX_VERSION] || SANDBOX_CONTROLLER_VERSION,
      // Real time: grace periods, controllers' resyncs and kwok's pod stages take what they take.
      patienceMs: 90_000,
      // The test control plane ends watches after 15–30 s (--min-request-timeout=15).
      endWatches: (resumed) => eventually(() => check(resumed), { timeoutMs: 60_000 }),
      stop: async () => {},
    };
  }
  const sim = await startSimulatedCluster({ clockScale: embedded.clockScale ?? 200, workers: 2, ...(embedded.dataDir ? { dataDir: embedded.dataDir } : {}) });
  const connection = connectToEmbeddedCluster(sim.serverUrl, sim.adminToken);
  return {
    description: "the embedded simulated cluster",
    connection,
    operatorConnection: connection,
    kubeconfigPath: embedded.dataDir ? simKubeconfigPath(embedded.dataDir) : null,
    workers: ["worker-1", "worker-2"],
    execUnavailable: null,
    storageClasses: { nodePinned: LOCAL_PATH_CLASS, portable: PORTABLE_CLASS },
    agentSandboxVersion: SANDBOX_CONTROLLER_VERSION,
    patienceMs: 20_000,
    async endWatches(resumed) {
      // Again until it took: a watch still being opened is not there to drop yet.
      await eventually(() => {
        sim.faults.dropWatches();
        check(resumed);
      }, { timeoutMs: 10_000, intervalMs: 100 });
    },
    stop: () => sim.stop(),
  };
}

function check(resumed: () => boolean): void {
  if (!resumed()) throw new Error("the watches have not been ended and resumed yet");
}
