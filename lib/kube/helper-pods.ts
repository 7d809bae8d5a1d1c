import { CoreV1Api, type V1Pod } from "@kubernetes/client-node";
import type { VolumeMoverPodManifest } from "../render/volume-mover-pod.ts";
import type { VolumeReaderPodManifest } from "../render/volume-reader-pod.ts";
import type { ClusterConnection } from "./cluster-connection.ts";
import { kube, nullIfNotFound } from "./kube-errors.ts";

// Berth's helper pods — those that read free claims and those that copy a workspace to another
// class — as intent-named calls: made and read as whoever the connection acts as (the person),
// listed and deleted as Berth by its reconciler. A pod already gone counts as deleted.

export function helperPods(connection: ClusterConnection) {
  const core = connection.kubeConfig.makeApiClient(CoreV1Api);
  return {
    create: (manifest: VolumeReaderPodManifest | VolumeMoverPodManifest): Promise<V1Pod> => kube(() => core.createNamespacedPod({ namespace: manifest.metadata.namespace, body: manifest })),

    read: (namespace: string, name: string): Promise<V1Pod | null> => nullIfNotFound(() => core.readNamespacedPod({ namespace, name })),

    /** Every helper of the namespace (or of every namespace), by Berth's helper label. */
    async list(labelSelector: string, namespace?: string): Promise<V1Pod[]> {
      const page = await kube(() => (namespace ? core.listNamespacedPod({ namespace, labelSelector }) : core.listPodForAllNamespaces({ labelSelector })));
      return page.items;
    },

    /** That pod only (by uid), at once: a helper holds nothing worth a grace period. */
    async delete(namespace: string, name: string, uid: string): Promise<void> {
      await nullIfNotFound(() => core.deleteNamespacedPod({ namespace, name, gracePeriodSeconds: 0, body: { preconditions: { uid } } }));
    },
  };
}

export type HelperPods = ReturnType<typeof helperPods>;
