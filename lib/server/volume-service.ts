import type { ClusterConnection } from "../kube/cluster-connection.ts";
import { volumeResources } from "../kube/volume-resources.ts";
import type { VolumeActionDeps } from "../sandboxes/volume-actions.ts";
import { ClusterUnavailableError } from "./api-problems.ts";
import type { Runtime } from "./runtime.ts";
import { sandboxServiceDeps } from "./sandbox-service.ts";

/** What the volume actions need from the runtime: the claims Berth knows come from the reconciler's watches. */
export async function volumeServiceDeps(runtime: Runtime, as: ClusterConnection = runtime.cluster.connection): Promise<VolumeActionDeps> {
  const reconciler = runtime.reconciler.current();
  if (!reconciler) throw new ClusterUnavailableError("Berth is not watching the cluster yet (it is unreachable or has no agent-sandbox CRDs); see GET /api/health.");
  const { sandboxApiVersion } = await sandboxServiceDeps(runtime);
  return { store: runtime.store, volumes: volumeResources(as, sandboxApiVersion), known: () => reconciler.volumes() };
}

/** The StorageClasses whose claims can grow, for the Volumes page to offer Expand only there. */
export async function expandableStorageClasses(runtime: Runtime): Promise<string[]> {
  const { sandboxApiVersion } = await sandboxServiceDeps(runtime);
  const classes = await volumeResources(runtime.cluster.connection, sandboxApiVersion).listStorageClasses();
  return classes.filter((one) => one.allowVolumeExpansion === true).map((one) => one.metadata?.name ?? "").filter(Boolean);
}
