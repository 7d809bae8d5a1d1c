import { describe, expect, it } from "vitest";
import { refs } from "../k8s-objects.ts";
import type { StoredObject } from "../objects.ts";
import { LOCAL_PATH_CLASS, PORTABLE_CLASS, PORTABLE_SNAPSHOT_CLASS } from "../storage-topology.ts";
import { createClaim, createPod, current, eventsFor, mounting, volumeCluster, type VolumeCluster } from "./test-support.ts";

const spec = (object: StoredObject) => object.spec as Record<string, unknown>;
const status = (object: StoredObject) => (object.status ?? {}) as Record<string, unknown>;

function createSnapshot(cluster: VolumeCluster, name: string, claimName: string, className?: string): StoredObject {
  return cluster.store.create(refs.snapshots, {
    apiVersion: "snapshot.storage.k8s.io/v1",
    kind: "VolumeSnapshot",
    metadata: { name, namespace: "default" },
    spec: { source: { persistentVolumeClaimName: claimName }, ...(className ? { volumeSnapshotClassName: className } : {}) },
  });
}

const volumeName = (cluster: VolumeCluster, claim: string) => String(spec(current(cluster.store, refs.claims, claim, "default")).volumeName);

describe("SnapshotController", () => {
  it("snapshots a portable claim with the default class, and a restore copies what the volume held then", async () => {
    const cluster = volumeCluster({ defaultClass: PORTABLE_CLASS });
    createClaim(cluster.store, "data", { resources: { requests: { storage: "2Gi" } } });
    await cluster.settle(2_000);
    const data = cluster.volumes.persistentVolume(volumeName(cluster, "data"));
    data.writeText("/notes.md", "before", 0);

    const created = createSnapshot(cluster, "snap", "data");
    await cluster.settle();
    expect(status(current(cluster.store, refs.snapshots, "snap", "default"))).toEqual({ boundVolumeSnapshotContentName: `snapcontent-${created.metadata.uid}`, readyToUse: false });
    await cluster.settle(1_000);
    const snapshot = current(cluster.store, refs.snapshots, "snap", "default");
    expect(spec(snapshot).volumeSnapshotClassName).toBe(PORTABLE_SNAPSHOT_CLASS);
    expect(status(snapshot)).toEqual({
      boundVolumeSnapshotContentName: `snapcontent-${created.metadata.uid}`,
      readyToUse: true,
      creationTime: cluster.clock.now().toISOString().replace(/\.\d{3}Z$/, "Z"),
      restoreSize: "2Gi",
    });
    expect(eventsFor(cluster.store, "snap").map(({ reason, message, source }) => ({ reason, message, source }))).toEqual([
      { reason: "CreatingSnapshot", message: "Waiting for a snapshot default/snap to be created by the CSI driver.", source: "snapshot-controller" },
      { reason: "SnapshotCreated", message: "Snapshot default/snap was successfully created by the CSI driver.", source: "snapshot-controller" },
      { reason: "SnapshotReady", message: "Snapshot default/snap is ready to use.", source: "snapshot-controller" },
    ]);

    data.writeText("/notes.md", "after", 0);
    createClaim(cluster.store, "restored", { resources: { requests: { storage: "2Gi" } }, dataSource: { apiGroup: "snapshot.storage.k8s.io", kind: "VolumeSnapshot", name: "snap" } });
    await cluster.settle(2_000);
    expect(status(current(cluster.store, refs.claims, "restored", "default")).phase).toBe("Bound");
    expect(cluster.volumes.persistentVolume(volumeName(cluster, "restored")).readText("/notes.md")).toBe("before");
  });

  it("reports at once that a node-pinned volume cannot be snapshotted", async () => {
    const cluster = volumeCluster({ defaultClass: LOCAL_PATH_CLASS });
    createClaim(cluster.store, "data");
    createPod(cluster.store, "app", mounting("data"));
    await cluster.settle(2_000);
    createSnapshot(cluster, "snap", "data");
    await cluster.settle();
    const snapshot = current(cluster.store, refs.snapshots, "snap", "default");
    const message = "Failed to set default snapshot class with error snapshotting non-CSI volumes is not supported, snapshot:default/snap";
    // The controller does not touch readyToUse for this error (updateSnapshotErrorStatusWithEvent(…, false, …)).
    expect(status(snapshot)).toEqual({ error: { message, time: cluster.clock.now().toISOString().replace(/\.\d{3}Z$/, "Z") } });
    expect(eventsFor(cluster.store, "snap")).toEqual([{ type: "Warning", reason: "SetDefaultSnapshotClassFailed", message, source: "snapshot-controller", count: 1 }]);
  });

  it("says which volume has no CSI source when the class is named explicitly", async () => {
    const cluster = volumeCluster({ defaultClass: LOCAL_PATH_CLASS });
    createClaim(cluster.store, "data");
    createPod(cluster.store, "app", mounting("data"));
    await cluster.settle(2_000);
    createSnapshot(cluster, "snap", "data", PORTABLE_SNAPSHOT_CLASS);
    await cluster.settle();
    expect(status(current(cluster.store, refs.snapshots, "snap", "default"))).toMatchObject({
      readyToUse: false,
      error: { message: `Failed to create snapshot content with error cannot find CSI PersistentVolumeSource for volume ${volumeName(cluster, "data")}` },
    });
  });

  it("waits for the claim to bind, saying so, then snapshots it", async () => {
    const cluster = volumeCluster({ defaultClass: PORTABLE_CLASS });
    createClaim(cluster.store, "data");
    createSnapshot(cluster, "snap", "data");
    await cluster.settle();
    expect(status(current(cluster.store, refs.snapshots, "snap", "default")).error).toMatchObject({
      message: "Failed to set default snapshot class with error the PVC data is not yet bound to a PV, will not attempt to take a snapshot",
    });
    await cluster.settle(3_000);
    expect(status(current(cluster.store, refs.snapshots, "snap", "default"))).toMatchObject({ readyToUse: true });
    expect(status(current(cluster.store, refs.snapshots, "snap", "default")).error).toBeUndefined();
  });

  it("keeps a restore Pending until its snapshot is ready", async () => {
    const cluster = volumeCluster({ defaultClass: PORTABLE_CLASS });
    createClaim(cluster.store, "restored", { dataSource: { apiGroup: "snapshot.storage.k8s.io", kind: "VolumeSnapshot", name: "snap" } });
    await cluster.settle(1_500);
    expect(eventsFor(cluster.store, "restored").find((event) => event.reason === "ProvisioningFailed")?.message).toBe(
      'failed to provision volume with StorageClass "portable": error getting handle for DataSource Type VolumeSnapshot by Name snap: error getting snapshot snap from api server: volumesnapshots.snapshot.storage.k8s.io "snap" not found',
    );
    createClaim(cluster.store, "data");
    createSnapshot(cluster, "snap", "data");
    await cluster.settle(30_000);
    expect(status(current(cluster.store, refs.claims, "restored", "default")).phase).toBe("Bound");
  });

  it("drops a deleted snapshot's data", async () => {
    const cluster = volumeCluster({ defaultClass: PORTABLE_CLASS });
    createClaim(cluster.store, "data");
    await cluster.settle(2_000);
    const created = createSnapshot(cluster, "snap", "data");
    await cluster.settle(2_000);
    expect(cluster.volumes.hasSnapshot(created.metadata.uid)).toBe(true);
    expect(current(cluster.store, refs.snapshots, "snap", "default").metadata.finalizers).toEqual([
      "snapshot.storage.kubernetes.io/volumesnapshot-as-source-protection",
      "snapshot.storage.kubernetes.io/volumesnapshot-bound-protection",
    ]);
    cluster.store.delete(refs.snapshots, "default", "snap");
    await cluster.settle();
    expect(cluster.store.peek(refs.snapshots, "default", "snap")).toBeUndefined();
    expect(cluster.volumes.hasSnapshot(created.metadata.uid)).toBe(false);
  });
});
