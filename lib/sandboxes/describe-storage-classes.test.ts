import type { V1PersistentVolume, V1StorageClass } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { describeStorageClasses, type StorageClassInputs } from "./describe-storage-classes.ts";

// The storage classes view, one fact per test: default, placement, expansion, snapshots.

function aClass(name: string, provisioner: string, extra: Partial<V1StorageClass> = {}): V1StorageClass {
  return { metadata: { name }, provisioner, ...extra };
}

const defaultAnnotation = { metadata: { name: "", annotations: { "storageclass.kubernetes.io/is-default-class": "true" } } };

function aVolume(storageClassName: string, pinnedTo?: string): V1PersistentVolume {
  const nodeAffinity = pinnedTo ? { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: "kubernetes.io/hostname", operator: "In", values: [pinnedTo] }] }] } } : undefined;
  return { metadata: { name: `pv-${Math.random()}` }, spec: { storageClassName, nodeAffinity } };
}

const view = (inputs: Partial<StorageClassInputs>) => describeStorageClasses({ classes: [], snapshotClasses: [], persistentVolumes: [], ...inputs });
const only = (inputs: Partial<StorageClassInputs>) => view(inputs)[0]!;

describe("the storage classes view", () => {
  it("marks the class with the default annotation and lists it first", () => {
    const classes = [aClass("a-fast", "csi.example.com"), aClass("z-standard", "csi.example.com", { metadata: { ...defaultAnnotation.metadata, name: "z-standard" } })];
    expect(view({ classes }).map((one) => [one.name, one.isDefault])).toEqual([
      ["z-standard", true],
      ["a-fast", false],
    ]);
  });

  it("calls a class node-pinned when its provisioner keeps data on one node", () => {
    expect(only({ classes: [aClass("local-path", "rancher.io/local-path")] }).placement).toBe("node-pinned");
  });

  it("calls a class node-pinned when its volumes carry single-node affinity", () => {
    const volumes = [aVolume("disks", "worker-2"), aVolume("disks")];
    const disks = only({ classes: [aClass("disks", "csi.example.com")], persistentVolumes: volumes });
    expect([disks.placement, disks.placementReason]).toEqual(["node-pinned", "1 of its 2 volumes are tied to a single node"]);
  });

  it("calls a class portable when nothing ties its volumes to a node", () => {
    expect(only({ classes: [aClass("shared", "csi.example.com")], persistentVolumes: [aVolume("shared")] }).placement).toBe("portable");
  });

  it("says a class can snapshot when a snapshot class exists for its driver", () => {
    const classes = [aClass("shared", "csi.example.com"), aClass("local-path", "rancher.io/local-path")];
    const snapshots = view({ classes, snapshotClasses: [{ name: "shared-snaps", driver: "csi.example.com" }] }).map((one) => [one.name, one.snapshots]);
    expect(snapshots).toEqual([
      ["local-path", false],
      ["shared", true],
    ]);
  });

  it("fills in Kubernetes' own defaults for binding mode, reclaim policy and expansion", () => {
    const plain = only({ classes: [aClass("plain", "csi.example.com")] });
    expect([plain.volumeBindingMode, plain.reclaimPolicy, plain.allowVolumeExpansion]).toEqual(["Immediate", "Delete", false]);
  });
});
