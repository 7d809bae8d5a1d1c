import { CustomObjectsApi } from "@kubernetes/client-node";
import type { ClusterConnection } from "./cluster-connection.ts";
import { kube } from "./kube-errors.ts";

// CSI VolumeSnapshots (snapshot.storage.k8s.io/v1) of a sandbox's claims.

const group = "snapshot.storage.k8s.io";
const version = "v1";
const plural = "volumesnapshots";

export interface VolumeSnapshotState {
  readyToUse: boolean;
  /** The snapshot controller's or driver's error, as soon as it reports one. */
  error: string | null;
}

interface StoredSnapshot {
  status?: { readyToUse?: boolean; error?: { message?: string } };
}

export function snapshotResources(connection: ClusterConnection) {
  const custom = connection.kubeConfig.makeApiClient(CustomObjectsApi);
  return {
    /** A snapshot of the claim; no class named, so the cluster picks its driver's default. */
    async createSnapshot(namespace: string, name: string, claimName: string, labels: Record<string, string>): Promise<void> {
      await kube(() =>
        custom.createNamespacedCustomObject({
          group, version, namespace, plural,
          body: { apiVersion: `${group}/${version}`, kind: "VolumeSnapshot", metadata: { name, namespace, labels }, spec: { source: { persistentVolumeClaimName: claimName } } },
        }),
      );
    },

    async snapshotState(namespace: string, name: string): Promise<VolumeSnapshotState> {
      const snapshot = (await kube(() => custom.getNamespacedCustomObject({ group, version, namespace, plural, name }))) as StoredSnapshot;
      return { readyToUse: snapshot.status?.readyToUse === true, error: snapshot.status?.error?.message ?? null };
    },
  };
}
