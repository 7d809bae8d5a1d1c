import { describe, expect, it } from "vitest";
import { ManualClock } from "./clock.ts";
import { refs } from "./k8s-objects.ts";
import {
  applyDefaultStorageClass, LOCAL_PATH_PROVISIONER, PORTABLE_DRIVER, provisionedVolume, PROVISIONERS, claimClassName, describeStorageClass, formatBinaryQuantity, installStorageTopology, LOCAL_PATH_CLASS, PORTABLE_CLASS, storageClasses,
  storageClassTraits, volumeSnapshotClasses,
} from "./storage-topology.ts";
import { ObjectStore } from "./store/object-store.ts";

const defaults = (classes: ReturnType<typeof storageClasses>) =>
  classes.filter((storageClass) => storageClass.metadata.annotations?.["storageclass.kubernetes.io/is-default-class"] === "true").map((storageClass) => storageClass.metadata.name);

describe("storage topology", () => {
  it("marks the chosen class as the default, or none", () => {
    expect(defaults(storageClasses())).toEqual([LOCAL_PATH_CLASS]);
    expect(defaults(storageClasses({ defaultClass: PORTABLE_CLASS }))).toEqual([PORTABLE_CLASS]);
    expect(defaults(storageClasses({ defaultClass: null }))).toEqual([]);
  });

  it("describes local-path as node-pinned without snapshots and portable as snapshot-capable", () => {
    const snapshotClasses = volumeSnapshotClasses();
    const [local, portable] = storageClasses().map((storageClass) => storageClassTraits(storageClass, snapshotClasses));
    expect(local).toEqual({
      name: LOCAL_PATH_CLASS,
      provisioner: "rancher.io/local-path",
      isDefault: true,
      bindingMode: "WaitForFirstConsumer",
      reclaimPolicy: "Delete",
      allowVolumeExpansion: false,
      nodePinned: true,
      snapshots: false,
      provisioned: true,
    });
    expect(portable).toMatchObject({ bindingMode: "Immediate", allowVolumeExpansion: true, nodePinned: false, snapshots: true, isDefault: false });
    // Without a VolumeSnapshotClass for its driver, the portable class cannot be snapshotted.
    expect(storageClassTraits(storageClasses()[1]!, []).snapshots).toBe(false);
  });

  it("installs its objects once and describes them from the store", () => {
    const store = new ObjectStore(new ManualClock());
    installStorageTopology(store, { defaultClass: PORTABLE_CLASS });
    installStorageTopology(store, { defaultClass: PORTABLE_CLASS });
    expect(store.list(refs.storageClasses).map((storageClass) => storageClass.metadata.name)).toEqual([LOCAL_PATH_CLASS, PORTABLE_CLASS]);
    expect(store.list(refs.snapshotClasses)).toHaveLength(1);
    expect(describeStorageClass(store, PORTABLE_CLASS)).toMatchObject({ isDefault: true, snapshots: true });
    expect(describeStorageClass(store, "gold")).toBeUndefined();
  });

  it("gives a claim without a class the default class, as the admission plugin does", () => {
    const store = new ObjectStore(new ManualClock());
    installStorageTopology(store, { defaultClass: LOCAL_PATH_CLASS });
    const classes = store.list(refs.storageClasses);
    const claim = { metadata: { name: "c" }, spec: { accessModes: ["ReadWriteOnce"] } };
    expect(applyDefaultStorageClass(claim, classes)).toBe(true);
    expect(claimClassName(claim)).toBe(LOCAL_PATH_CLASS);
    const none = { metadata: { name: "c" }, spec: { storageClassName: "" } };
    expect(applyDefaultStorageClass(none, classes)).toBe(false);
    expect(claimClassName(none)).toBe("");
  });

  it("formats byte counts as BinarySI quantities", () => {
    expect(formatBinaryQuantity(2 * 1024 ** 3)).toBe("2Gi");
    expect(formatBinaryQuantity(1536 * 1024 ** 2)).toBe("1536Mi");
    expect(formatBinaryQuantity(1_000_000_000)).toBe("1000000000");
    expect(formatBinaryQuantity(0)).toBe("0");
  });

  it("writes a local-path volume as the provisioner does: a hostPath pinned to the selected node", () => {
    const claim = {
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      metadata: { name: "workspace-box", namespace: "agents", uid: "1234", resourceVersion: "7", creationTimestamp: "2026-01-01T00:00:00Z" },
      spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "2Gi" } }, storageClassName: LOCAL_PATH_CLASS },
    };
    const [localPath, portable] = storageClasses();
    const node = { metadata: { name: "worker-2", labels: { "kubernetes.io/hostname": "worker-2" } } };
    expect(provisionedVolume({ claim, storageClass: localPath!, profile: PROVISIONERS[LOCAL_PATH_PROVISIONER]!, node, now: new Date(0), volumeHandle: "h" })).toEqual({
      apiVersion: "v1",
      kind: "PersistentVolume",
      metadata: { name: "pvc-1234", annotations: { "pv.kubernetes.io/provisioned-by": "rancher.io/local-path" }, finalizers: ["kubernetes.io/pv-protection"] },
      spec: {
        accessModes: ["ReadWriteOnce"],
        capacity: { storage: "2Gi" },
        claimRef: { kind: "PersistentVolumeClaim", namespace: "agents", name: "workspace-box", uid: "1234", apiVersion: "v1", resourceVersion: "7" },
        persistentVolumeReclaimPolicy: "Delete",
        storageClassName: LOCAL_PATH_CLASS,
        volumeMode: "Filesystem",
        hostPath: { path: "/var/local-path-provisioner/pvc-1234_agents_workspace-box", type: "DirectoryOrCreate" },
        nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: "kubernetes.io/hostname", operator: "In", values: ["worker-2"] }] }] } },
      },
      status: { phase: "Pending" },
    });
    const csi = provisionedVolume({ claim, storageClass: portable!, profile: PROVISIONERS[PORTABLE_DRIVER]!, now: new Date(0), volumeHandle: "h" });
    expect(csi.spec).toMatchObject({ csi: { driver: PORTABLE_DRIVER, volumeHandle: "h", fsType: "ext4" }, storageClassName: PORTABLE_CLASS });
    expect((csi.spec as Record<string, unknown>).nodeAffinity).toBeUndefined();
    expect(csi.metadata.finalizers).toEqual(["external-provisioner.volume.kubernetes.io/finalizer", "kubernetes.io/pv-protection"]);
  });
});
