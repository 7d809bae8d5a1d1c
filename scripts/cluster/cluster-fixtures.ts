// What the test control plane holds before any test runs: two kwok worker nodes and the two
// kinds of storage Berth must tell apart. There is no provisioner, so both classes are backed by
// volumes made here in advance (static provisioning), as an administrator would:
//   local-path  node-pinned, the default, WaitForFirstConsumer: each volume has node affinity to
//               one worker, like kind's local-path volumes, so a claim follows the node where its
//               first pod was scheduled and pins every later pod there;
//   portable    network storage (an NFS CSI driver's volumes, with no node affinity): a claim
//               binds at once and its pod can run anywhere.

const WORKERS = ["berth-worker-a", "berth-worker-b"];
/** Enough for every claim the suites make, twice over (a used volume is never reused). */
const VOLUMES_PER_NODE = 24;
const PORTABLE_VOLUMES = 24;
const KWOK_NODE_ANNOTATION = "kwok.x-k8s.io/node";

const node = (name: string) => ({
  apiVersion: "v1",
  kind: "Node",
  metadata: {
    name,
    annotations: { [KWOK_NODE_ANNOTATION]: "fake" },
    labels: { "kubernetes.io/hostname": name, "kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64", "node-role.kubernetes.io/worker": "", type: "kwok" },
  },
  status: {
    allocatable: { cpu: "8", memory: "32Gi", pods: "110" },
    capacity: { cpu: "8", memory: "32Gi", pods: "110" },
  },
});

const storageClass = (name: string, provisioner: string, bindingMode: string, options: { isDefault: boolean; expandable: boolean }) => ({
  apiVersion: "storage.k8s.io/v1",
  kind: "StorageClass",
  metadata: { name, ...(options.isDefault ? { annotations: { "storageclass.kubernetes.io/is-default-class": "true" } } : {}) },
  provisioner,
  reclaimPolicy: "Retain",
  volumeBindingMode: bindingMode,
  ...(options.expandable ? { allowVolumeExpansion: true } : {}),
});

const localVolume = (nodeName: string, index: number) => ({
  apiVersion: "v1",
  kind: "PersistentVolume",
  metadata: { name: `local-${nodeName}-${index}` },
  spec: {
    capacity: { storage: "10Gi" },
    accessModes: ["ReadWriteOnce"],
    persistentVolumeReclaimPolicy: "Retain",
    storageClassName: "local-path",
    local: { path: `/var/lib/berth-volumes/${index}` },
    nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: "kubernetes.io/hostname", operator: "In", values: [nodeName] }] }] } },
  },
});

const portableVolume = (index: number) => ({
  apiVersion: "v1",
  kind: "PersistentVolume",
  metadata: { name: `portable-${index}` },
  spec: {
    capacity: { storage: "10Gi" },
    accessModes: ["ReadWriteOnce", "ReadWriteMany"],
    persistentVolumeReclaimPolicy: "Retain",
    storageClassName: "portable",
    csi: { driver: "nfs.csi.k8s.io", volumeHandle: `nfs.berth.test#exports#portable-${index}` },
  },
});

export const clusterFixtures = {
  workers: WORKERS,
  nodePinnedClass: "local-path",
  portableClass: "portable",
  kwokNodeAnnotation: `${KWOK_NODE_ANNOTATION}=fake`,
  manifests(): object[] {
    return [
      ...WORKERS.map(node),
      storageClass("local-path", "kubernetes.io/no-provisioner", "WaitForFirstConsumer", { isDefault: true, expandable: false }),
      // Expandable, as network storage usually is (and as the embedded cluster's portable class);
      // with no resizer here, a claim asks for more and its volume stays as it is.
      storageClass("portable", "nfs.csi.k8s.io", "Immediate", { isDefault: false, expandable: true }),
      ...WORKERS.flatMap((name) => Array.from({ length: VOLUMES_PER_NODE }, (_, index) => localVolume(name, index))),
      ...Array.from({ length: PORTABLE_VOLUMES }, (_, index) => portableVolume(index)),
    ];
  },
};
