import { CustomObjectsApi } from "@kubernetes/client-node";
import type { VolumeSnapshot } from "../domain/volume-snapshot.ts";
import type { ClusterConnection } from "./cluster-connection.ts";
import { kube, nullIfNotFound } from "./kube-errors.ts";

// CSI VolumeSnapshots (snapshot.storage.k8s.io/v1) of claims: taken at a checkpoint, or on the
// Volumes page; listed, restored from (through a claim's dataSource) and deleted there.

const group = "snapshot.storage.k8s.io";
const version = "v1";
const plural = "volumesnapshots";

export interface VolumeSnapshotState {
  readyToUse: boolean;
  /** The snapshot controller's or driver's error, as soon as it reports one. */
  error: string | null;
}

interface StoredSnapshot {
  metadata?: { namespace?: string; name?: string; uid?: string; creationTimestamp?: string; deletionTimestamp?: string };
  spec?: { source?: { persistentVolumeClaimName?: string }; volumeSnapshotClassName?: string };
  status?: { readyToUse?: boolean; restoreSize?: string; error?: { message?: string } };
}

function snapshotView(snapshot: StoredSnapshot): VolumeSnapshot & { uid: string } {
  return {
    namespace: snapshot.metadata?.namespace ?? "",
    name: snapshot.metadata?.name ?? "",
    uid: snapshot.metadata?.uid ?? "",
    sourceClaim: snapshot.spec?.source?.persistentVolumeClaimName ?? null,
    readyToUse: snapshot.status?.readyToUse === true,
    restoreSize: snapshot.status?.restoreSize ?? null,
    error: snapshot.status?.error?.message ?? null,
    snapshotClass: snapshot.spec?.volumeSnapshotClassName ?? null,
    createdAt: snapshot.metadata?.creationTimestamp ? new Date(snapshot.metadata.creationTimestamp).toISOString() : null,
    deleting: Boolean(snapshot.metadata?.deletionTimestamp),
  };
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

    /** null when there is no such snapshot, or snapshots are not served at all. */
    async readSnapshot(namespace: string, name: string): Promise<(VolumeSnapshot & { uid: string }) | null> {
      const snapshot = (await nullIfNotFound(() => custom.getNamespacedCustomObject({ group, version, namespace, plural, name }))) as StoredSnapshot | null;
      return snapshot ? snapshotView(snapshot) : null;
    },

    /** Every snapshot of the namespace; none where snapshots are not served. */
    async listSnapshots(namespace: string): Promise<VolumeSnapshot[]> {
      const list = (await nullIfNotFound(() => custom.listNamespacedCustomObject({ group, version, namespace, plural }))) as { items: StoredSnapshot[] } | null;
      return (list?.items ?? []).map((one) => {
        const { uid: _uid, ...view } = snapshotView(one);
        return view;
      });
    },

    /** Deletes exactly the snapshot with this uid (409 for one recreated under its name); already gone counts as done. */
    async deleteSnapshot(namespace: string, name: string, uid: string): Promise<void> {
      await nullIfNotFound(() => custom.deleteNamespacedCustomObject({ group, version, namespace, plural, name, body: { preconditions: { uid } } }));
    },
  };
}

export type SnapshotResources = ReturnType<typeof snapshotResources>;
