import type { V1PersistentVolume, V1StorageClass } from "@kubernetes/client-node";
import type { StorageClassView, StoragePlacement } from "../domain/storage-class.ts";
import type { SnapshotClass } from "../kube/storage-class-resources.ts";
import { pinnedNodeOf } from "../kube/volume-topology.ts";

// The cluster's StorageClasses as someone choosing where a workspace lives needs them: which is
// the default, whether a volume can follow its pod to another node, whether it can be expanded
// or snapshotted. Pure: a reading of the classes, snapshot classes and volumes the caller listed.

export interface StorageClassInputs {
  classes: V1StorageClass[];
  snapshotClasses: SnapshotClass[];
  persistentVolumes: V1PersistentVolume[];
}

const DEFAULT_ANNOTATIONS = ["storageclass.kubernetes.io/is-default-class", "storageclass.beta.kubernetes.io/is-default-class"];

/**
 * Provisioners that keep a volume's data on the disk of one node. A class with one of these is
 * node-pinned before it has provisioned anything; for the rest, the volumes already provisioned
 * are the evidence.
 */
const NODE_LOCAL_PROVISIONERS = new Set([
  "rancher.io/local-path",
  "kubernetes.io/no-provisioner",
  "openebs.io/local",
  "local.csi.openebs.io",
  "topolvm.io",
  "topolvm.cybozu.com",
  "lvm.csi.metal-stack.io",
  "hostpath.csi.k8s.io",
  "kubevirt.io.hostpath-provisioner",
]);

const isDefault = (storageClass: V1StorageClass) => DEFAULT_ANNOTATIONS.some((key) => storageClass.metadata?.annotations?.[key] === "true");

function placementOf(storageClass: V1StorageClass, volumes: V1PersistentVolume[]): { placement: StoragePlacement; placementReason: string } {
  const provisioner = storageClass.provisioner;
  if (NODE_LOCAL_PROVISIONERS.has(provisioner)) {
    return { placement: "node-pinned", placementReason: `${provisioner} keeps each volume on the disk of the node it was provisioned on` };
  }
  const pinned = volumes.filter((volume) => pinnedNodeOf(volume) !== null);
  if (pinned.length > 0) {
    return { placement: "node-pinned", placementReason: `${pinned.length} of its ${volumes.length} volumes are tied to a single node` };
  }
  const hostnameTopology = storageClass.allowedTopologies?.some((term) => term.matchLabelExpressions?.some((expression) => expression.key === "kubernetes.io/hostname"));
  if (hostnameTopology) return { placement: "node-pinned", placementReason: "its allowed topologies name single nodes" };
  const evidence = volumes.length > 0 ? `none of its ${volumes.length} volumes is tied to a node` : "its volumes are not tied to a node by its provisioner";
  return { placement: "portable", placementReason: evidence };
}

/** Every class, the default first, then by name. */
export function describeStorageClasses(inputs: StorageClassInputs): StorageClassView[] {
  const volumesByClass = new Map<string, V1PersistentVolume[]>();
  for (const volume of inputs.persistentVolumes) {
    const name = volume.spec?.storageClassName ?? "";
    volumesByClass.set(name, [...(volumesByClass.get(name) ?? []), volume]);
  }
  const snapshotDrivers = new Set(inputs.snapshotClasses.map((snapshotClass) => snapshotClass.driver));
  return inputs.classes
    .map((storageClass): StorageClassView => {
      const name = storageClass.metadata?.name ?? "";
      return {
        name,
        provisioner: storageClass.provisioner,
        isDefault: isDefault(storageClass),
        volumeBindingMode: storageClass.volumeBindingMode ?? "Immediate",
        reclaimPolicy: storageClass.reclaimPolicy ?? "Delete",
        allowVolumeExpansion: storageClass.allowVolumeExpansion === true,
        ...placementOf(storageClass, volumesByClass.get(name) ?? []),
        snapshots: snapshotDrivers.has(storageClass.provisioner),
      };
    })
    .sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || a.name.localeCompare(b.name));
}
