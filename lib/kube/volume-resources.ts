import { CoreV1Api, CustomObjectsApi, StorageV1Api, type V1PersistentVolume, type V1PersistentVolumeClaim, type V1Pod, type V1StorageClass } from "@kubernetes/client-node";
import { SANDBOX_API_GROUP, type SandboxApiVersion } from "../domain/sandbox-api.ts";
import type { ClusterConnection } from "./cluster-connection.ts";
import { kube, nullIfNotFound } from "./kube-errors.ts";
import type { StoredSandbox } from "./sandbox-resources.ts";
import { mergePatch } from "./patch-options.ts";
import type { PersistentVolumeClaimManifest } from "../render/manifests.ts";

// The calls behind the Volumes page's actions: fresh reads of who may use a claim (never the
// watch caches, which may lag behind a pod that just started), its StorageClass, and writes that
// carry a precondition so they only ever touch the claim that was looked at.

export function volumeResources(connection: ClusterConnection, version: SandboxApiVersion) {
  const core = connection.kubeConfig.makeApiClient(CoreV1Api);
  const custom = connection.kubeConfig.makeApiClient(CustomObjectsApi);
  const storage = connection.kubeConfig.makeApiClient(StorageV1Api);

  return {
    readClaim: (namespace: string, name: string): Promise<V1PersistentVolumeClaim | null> => nullIfNotFound(() => core.readNamespacedPersistentVolumeClaim({ namespace, name })),

    listPods: async (namespace: string): Promise<V1Pod[]> => (await kube(() => core.listNamespacedPod({ namespace }))).items,

    listSandboxes: async (namespace: string): Promise<StoredSandbox[]> =>
      ((await kube(() => custom.listNamespacedCustomObject({ group: SANDBOX_API_GROUP, version, namespace, plural: "sandboxes" }))) as { items: StoredSandbox[] }).items,

    listStorageClasses: async (): Promise<V1StorageClass[]> => (await kube(() => storage.listStorageClass())).items,

    readStorageClass: (name: string): Promise<V1StorageClass | null> => nullIfNotFound(() => storage.readStorageClass({ name })),

    createClaim: (manifest: PersistentVolumeClaimManifest): Promise<V1PersistentVolumeClaim> =>
      kube(() => core.createNamespacedPersistentVolumeClaim({ namespace: manifest.metadata.namespace!, body: manifest })),


    /**
     * Deletes exactly the claim with this uid: one deleted and recreated under the same name
     * since is refused by the API server (409 Conflict). Already gone counts as done.
     */
    deleteClaim: async (namespace: string, name: string, uid: string): Promise<void> => {
      await nullIfNotFound(() => core.deleteNamespacedPersistentVolumeClaim({ namespace, name, body: { preconditions: { uid } } }));
    },

    readPersistentVolume: (name: string): Promise<V1PersistentVolume | null> => nullIfNotFound(() => core.readPersistentVolume({ name })),

    /** That volume only (by uid: 409 for one recreated under its name); already gone counts as done. */
    deletePersistentVolume: async (name: string, uid: string): Promise<void> => {
      await nullIfNotFound(() => core.deletePersistentVolume({ name, body: { preconditions: { uid } } }));
    },

    /** The resourceVersion makes it apply only to the volume that was read. */
    setReclaimPolicy: (name: string, policy: "Retain" | "Delete", resourceVersion: string): Promise<V1PersistentVolume> =>
      kube(() => core.patchPersistentVolume({ name, body: { metadata: { resourceVersion }, spec: { persistentVolumeReclaimPolicy: policy } } }, mergePatch)),

    /** Berth's claims that carry this label, in every namespace. */
    listLabelledClaims: async (labelSelector: string): Promise<V1PersistentVolumeClaim[]> => (await kube(() => core.listPersistentVolumeClaimForAllNamespaces({ labelSelector }))).items,

    /** Takes a label off the claim with this uid (a claim recreated under its name is refused: its uid differs). */
    removeClaimLabel: (namespace: string, name: string, uid: string, label: string): Promise<V1PersistentVolumeClaim> =>
      kube(() => core.patchNamespacedPersistentVolumeClaim({ namespace, name, body: { metadata: { uid, labels: { [label]: null } } } }, mergePatch)),

    /** Asks for more storage; the resourceVersion makes it apply only to the claim that was read. */
    requestStorage: (namespace: string, name: string, size: string, resourceVersion: string): Promise<V1PersistentVolumeClaim> =>
      kube(() =>
        core.patchNamespacedPersistentVolumeClaim({ namespace, name, body: { metadata: { resourceVersion }, spec: { resources: { requests: { storage: size } } } } }, mergePatch),
      ),
  };
}

export type VolumeResources = ReturnType<typeof volumeResources>;
