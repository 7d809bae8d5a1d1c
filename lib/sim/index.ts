// lib/sim: the embedded simulated Kubernetes cluster. A test double and a demo, never a
// production engine. The product reaches it only through startSimulatedCluster (when no real
// cluster is configured) and then, like any cluster, through its HTTP API.
import { bindPod } from "./api/binding.ts";
import { evictPod } from "./api/eviction.ts";
import { lockDataDir } from "../platform/data-dir-lock.ts";
import type { Clock } from "./clock.ts";
import { ClaimProtectionController } from "./controllers/claim-protection.ts";
import { DisruptionController } from "./controllers/disruption-controller.ts";
import { DeploymentController } from "./controllers/deployment-controller.ts";
import { GarbageCollector } from "./controllers/garbage-collector.ts";
import { ReplicaSetController } from "./controllers/replica-set-controller.ts";
import { NamespaceController } from "./controllers/namespace-controller.ts";
import { Scheduler } from "./controllers/scheduler.ts";
import { SnapshotController } from "./controllers/snapshot-controller.ts";
import { VolumeBinder } from "./controllers/volume-binder.ts";
import { SimCluster } from "./sim-cluster.ts";
import { storageSeed, type DefaultClass } from "./storage-topology.ts";

export { kubeconfigPath, SimCluster } from "./sim-cluster.ts";
export type { DefaultClass } from "./storage-topology.ts";
export type { ApiFault } from "./faults.ts";
export type { DrainOptions, DrainReport } from "./drain.ts";

export interface SimulatedClusterOptions {
  /** Where the cluster keeps its state (state.json) and writes its kubeconfig. */
  dataDir?: string;
  port?: number;
  /** Simulated seconds per real second. */
  clockScale?: number;
  /** A clock of the caller's (tests); overrides clockScale. */
  clock?: Clock;
  workers?: number;
  /** The default StorageClass: node-pinned local-path (as kind), portable, or none at all. */
  defaultStorageClass?: DefaultClass;
  imagePullMs?: number;
  provisionDelayMs?: number;
  log?: (line: string) => void;
  /** Group versions not served (`agents.x-k8s.io/v1alpha1`), to stand for a newer or half-migrated install. */
  withdrawnVersions?: readonly string[];
}

/** Starts the simulated cluster with every simulated controller, the default topology and the fault API. */
export async function startSimulatedCluster(options: SimulatedClusterOptions = {}): Promise<SimCluster> {
  // One process at a time may own a persisted cluster: two would overwrite each other's state.
  const lock = options.dataDir ? await lockDataDir(options.dataDir) : undefined;
  let binder: VolumeBinder | undefined;
  const cluster = await SimCluster.start({
    onStop: () => lock?.release(),
    dataDir: options.dataDir,
    port: options.port,
    clockScale: options.clockScale,
    clock: options.clock,
    workers: options.workers,
    imagePullMs: options.imagePullMs,
    log: options.log,
    withdrawnVersions: options.withdrawnVersions,
    seed: () => storageSeed({ defaultClass: options.defaultStorageClass === undefined ? "local-path" : options.defaultStorageClass }),
    controllers: (parts) => {
      binder = new VolumeBinder({ store: parts.store, clock: parts.clock, recorder: parts.recorder, volumes: parts.volumes, provisionDelayMs: options.provisionDelayMs });
      return [
        new Scheduler({ store: parts.store, clock: parts.clock, recorder: parts.recorder }),
        binder,
        new ClaimProtectionController(parts.store),
        new SnapshotController({ store: parts.store, clock: parts.clock, recorder: parts.recorder, volumes: parts.volumes }),
        new GarbageCollector(parts.store, parts.recorder),
        new NamespaceController(parts.store, parts.clock, { orderedDeletion: true }),
        new DisruptionController(parts.store, parts.clock, parts.recorder),
        new DeploymentController(parts.store, parts.clock),
        new ReplicaSetController(parts.store, parts.clock),
      ];
    },
    podSubresources: (parts) => ({
      evict: (namespace, name, body, dryRun) => evictPod({ store: parts.store, clock: parts.clock }, namespace, name, body, dryRun),
      bind: (namespace, name, body) => bindPod({ store: parts.store, clock: parts.clock }, namespace, name, body),
    }),
    failProvisioning: (storageClass, message) => {
      if (!binder) throw new Error("the volume controllers are not running");
      binder.failProvisioning(storageClass, message);
    },
  }).catch((error: unknown) => {
    lock?.release();
    throw error;
  });
  return cluster;
}
