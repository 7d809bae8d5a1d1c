import { CustomObjectsApi, CoreV1Api, StorageV1Api, type V1PersistentVolume, type V1StorageClass } from "@kubernetes/client-node";
import type { ClusterConnection } from "./cluster-connection.ts";
import { kube, KubeApiError } from "./kube-errors.ts";

// StorageClasses, the VolumeSnapshotClasses beside them, and the PersistentVolumes that show
// where each class really puts its data.

export interface SnapshotClass {
  name: string;
  driver: string;
}

export function storageClassResources(connection: ClusterConnection) {
  const storage = connection.kubeConfig.makeApiClient(StorageV1Api);
  const core = connection.kubeConfig.makeApiClient(CoreV1Api);
  const custom = connection.kubeConfig.makeApiClient(CustomObjectsApi);
  return {
    listStorageClasses: async (): Promise<V1StorageClass[]> => (await kube(() => storage.listStorageClass())).items,

    listPersistentVolumes: async (): Promise<V1PersistentVolume[]> => (await kube(() => core.listPersistentVolume())).items,

    /** Empty on a cluster without the snapshot CRDs: no class can snapshot there. */
    async listSnapshotClasses(): Promise<SnapshotClass[]> {
      try {
        const list = (await kube(() => custom.listClusterCustomObject({ group: "snapshot.storage.k8s.io", version: "v1", plural: "volumesnapshotclasses" }))) as {
          items?: { metadata?: { name?: string }; driver?: string }[];
        };
        return (list.items ?? []).map((item) => ({ name: item.metadata?.name ?? "", driver: item.driver ?? "" }));
      } catch (error) {
        if (error instanceof KubeApiError && error.notFound) return [];
        throw error;
      }
    },
  };
}
