import { randomUUID } from "node:crypto";
import { parseQuantity } from "../domain/quantity.ts";
import { hostnameAffinity, hostnameOf } from "./controllers/node-affinity.ts";
import { list, record, refs } from "./k8s-objects.ts";
import type { KubeObject, StoredObject } from "./objects.ts";
import { StatusError } from "./status-error.ts";
import type { ObjectStore } from "./store/object-store.ts";

// The storage a simulated cluster offers: a node-pinned class (kind's rancher.io/local-path: a
// PV lives on the node it was provisioned on and pins every pod that mounts it) and a portable
// CSI class (no node affinity, ReadWriteMany, expandable, snapshot-capable), either of them the
// default or neither. What a provisioner can do is a fact about the provisioner, not the class
// name, so a class a user creates with one of these provisioners behaves like ours.

export const LOCAL_PATH_PROVISIONER = "rancher.io/local-path";
export const PORTABLE_DRIVER = "csi.sim.berth.dev";
export const LOCAL_PATH_CLASS = "local-path";
export const PORTABLE_CLASS = "portable";
export const PORTABLE_SNAPSHOT_CLASS = "portable-snapshots";

export const DEFAULT_CLASS_ANNOTATION = "storageclass.kubernetes.io/is-default-class";
export const BETA_DEFAULT_CLASS_ANNOTATION = "storageclass.beta.kubernetes.io/is-default-class";
export const DEFAULT_SNAPSHOT_CLASS_ANNOTATION = "snapshot.storage.kubernetes.io/is-default-class";
/** The pre-storageClassName way of naming a claim's class, still honoured first. */
export const BETA_CLAIM_CLASS_ANNOTATION = "volume.beta.kubernetes.io/storage-class";

export type DefaultClass = typeof LOCAL_PATH_CLASS | typeof PORTABLE_CLASS | null;

export interface StorageTopologyOptions {
  /** Which class carries the default annotation; null for a cluster without a default class. */
  defaultClass?: DefaultClass;
}

/** What one of the simulated provisioners can do. */
export interface ProvisionerProfile {
  name: string;
  /** "local" writes hostPath PVs pinned to the selected node; "csi" writes CSI PVs. */
  kind: "local" | "csi";
  nodePinned: boolean;
  accessModes: string[];
  /** Has a CSI snapshotter and accepts VolumeSnapshot and PersistentVolumeClaim data sources. */
  dataSources: boolean;
  /** Has an external resizer. */
  resizer: boolean;
  /** How its events name their source: `<provisioner>_<pod>_<uuid>`, as the sidecars do. */
  identity: string;
}

const instance = randomUUID();

export const PROVISIONERS: Record<string, ProvisionerProfile> = {
  [LOCAL_PATH_PROVISIONER]: {
    name: LOCAL_PATH_PROVISIONER,
    kind: "local",
    nodePinned: true,
    accessModes: ["ReadWriteOnce", "ReadWriteOncePod"],
    dataSources: false,
    resizer: false,
    identity: `${LOCAL_PATH_PROVISIONER}_local-path-provisioner-7b8d9c6f5-x2k4q_${instance}`,
  },
  [PORTABLE_DRIVER]: {
    name: PORTABLE_DRIVER,
    kind: "csi",
    nodePinned: false,
    accessModes: ["ReadWriteOnce", "ReadWriteOncePod", "ReadOnlyMany", "ReadWriteMany"],
    dataSources: true,
    resizer: true,
    identity: `${PORTABLE_DRIVER}_csi-sim-controller-0_${instance}`,
  },
};

export function provisionerProfile(name: string | undefined): ProvisionerProfile | undefined {
  return name ? PROVISIONERS[name] : undefined;
}

/** The StorageClass objects of a new cluster. */
export function storageClasses(options: StorageTopologyOptions = {}): KubeObject[] {
  const defaultClass = options.defaultClass === undefined ? LOCAL_PATH_CLASS : options.defaultClass;
  const annotations = (name: string) => (name === defaultClass ? { annotations: { [DEFAULT_CLASS_ANNOTATION]: "true" } } : {});
  return [
    {
      apiVersion: "storage.k8s.io/v1",
      kind: "StorageClass",
      metadata: { name: LOCAL_PATH_CLASS, ...annotations(LOCAL_PATH_CLASS) },
      provisioner: LOCAL_PATH_PROVISIONER,
      reclaimPolicy: "Delete",
      volumeBindingMode: "WaitForFirstConsumer",
    },
    {
      apiVersion: "storage.k8s.io/v1",
      kind: "StorageClass",
      metadata: { name: PORTABLE_CLASS, ...annotations(PORTABLE_CLASS) },
      provisioner: PORTABLE_DRIVER,
      reclaimPolicy: "Delete",
      volumeBindingMode: "Immediate",
      allowVolumeExpansion: true,
    },
  ];
}

/** The VolumeSnapshotClass objects of a new cluster: one, the default, for the CSI driver. */
export function volumeSnapshotClasses(): KubeObject[] {
  return [
    {
      apiVersion: "snapshot.storage.k8s.io/v1",
      kind: "VolumeSnapshotClass",
      metadata: { name: PORTABLE_SNAPSHOT_CLASS, annotations: { [DEFAULT_SNAPSHOT_CLASS_ANNOTATION]: "true" } },
      driver: PORTABLE_DRIVER,
      deletionPolicy: "Delete",
    },
  ];
}

/** Seed entries for SimClusterOptions.seed. */
export function storageSeed(options: StorageTopologyOptions = {}): { ref: typeof refs.storageClasses | typeof refs.snapshotClasses; object: KubeObject }[] {
  return [
    ...storageClasses(options).map((object) => ({ ref: refs.storageClasses, object })),
    ...volumeSnapshotClasses().map((object) => ({ ref: refs.snapshotClasses, object })),
  ];
}

/** Creates the classes in a store; ones that already exist are left alone. */
export function installStorageTopology(store: ObjectStore, options: StorageTopologyOptions = {}): void {
  for (const { ref, object } of storageSeed(options)) {
    try {
      store.create(ref, object);
    } catch (error) {
      if (!(error instanceof StatusError && error.status.reason === "AlreadyExists")) throw error;
    }
  }
}

// ---- facts about classes and claims ----

export const isDefaultClass = (storageClass: KubeObject): boolean => {
  const annotations = storageClass.metadata.annotations ?? {};
  return annotations[DEFAULT_CLASS_ANNOTATION] === "true" || annotations[BETA_DEFAULT_CLASS_ANNOTATION] === "true";
};

/**
 * The default class as util.GetDefaultClass picks it: among classes marked default, the newest,
 * then the first by name. Undefined when no class is marked.
 */
export function defaultStorageClass(classes: StoredObject[]): StoredObject | undefined {
  return classes
    .filter(isDefaultClass)
    .sort((a, b) => (a.metadata.creationTimestamp === b.metadata.creationTimestamp ? (a.metadata.name < b.metadata.name ? -1 : 1) : a.metadata.creationTimestamp > b.metadata.creationTimestamp ? -1 : 1))[0];
}

/** A claim's class: the beta annotation first, then spec.storageClassName; "" for none. */
export function claimClassName(claim: KubeObject): string {
  const annotation = claim.metadata.annotations?.[BETA_CLAIM_CLASS_ANNOTATION];
  if (annotation !== undefined) return annotation;
  const name = record(claim.spec).storageClassName;
  return typeof name === "string" ? name : "";
}

/** Whether the claim names a class at all; `storageClassName: ""` does (it asks for none). */
export function claimHasClass(claim: KubeObject): boolean {
  return claim.metadata.annotations?.[BETA_CLAIM_CLASS_ANNOTATION] !== undefined || typeof record(claim.spec).storageClassName === "string";
}

/**
 * The DefaultStorageClass admission plugin: a claim created without a class gets the default
 * class's name. Returns whether it changed the claim.
 */
export function applyDefaultStorageClass(claim: KubeObject, classes: StoredObject[]): boolean {
  if (claimHasClass(claim)) return false;
  const fallback = defaultStorageClass(classes);
  if (!fallback) return false;
  claim.spec = { ...record(claim.spec), storageClassName: fallback.metadata.name };
  return true;
}

export interface StorageClassTraits {
  name: string;
  provisioner: string;
  isDefault: boolean;
  bindingMode: "Immediate" | "WaitForFirstConsumer";
  reclaimPolicy: string;
  allowVolumeExpansion: boolean;
  /** Its PVs carry node affinity: pods that mount them follow them to their node. */
  nodePinned: boolean;
  /** A VolumeSnapshotClass exists for its driver and the driver can snapshot. */
  snapshots: boolean;
  /** The simulated cluster runs a provisioner for it. */
  provisioned: boolean;
}

/** What the console shows about a class: pure over the class and the snapshot classes. */
export function storageClassTraits(storageClass: KubeObject, snapshotClasses: KubeObject[]): StorageClassTraits {
  const provisioner = String(storageClass.provisioner ?? "");
  const profile = provisionerProfile(provisioner);
  return {
    name: storageClass.metadata.name ?? "",
    provisioner,
    isDefault: isDefaultClass(storageClass),
    bindingMode: storageClass.volumeBindingMode === "WaitForFirstConsumer" ? "WaitForFirstConsumer" : "Immediate",
    reclaimPolicy: typeof storageClass.reclaimPolicy === "string" ? storageClass.reclaimPolicy : "Delete",
    allowVolumeExpansion: storageClass.allowVolumeExpansion === true,
    nodePinned: profile?.nodePinned ?? false,
    snapshots: profile?.dataSources === true && snapshotClasses.some((snapshotClass) => snapshotClass.driver === provisioner),
    provisioned: profile !== undefined,
  };
}

/** The traits of a class by name, read from a store; undefined when there is no such class. */
export function describeStorageClass(store: ObjectStore, name: string): StorageClassTraits | undefined {
  const storageClass = store.peek(refs.storageClasses, undefined, name);
  return storageClass ? storageClassTraits(storageClass, store.list(refs.snapshotClasses)) : undefined;
}

// ---- what provisioners make ----

export const ANN_PROVISIONED_BY = "pv.kubernetes.io/provisioned-by";
export const PV_PROTECTION_FINALIZER = "kubernetes.io/pv-protection";
export const PROVISIONER_FINALIZER = "external-provisioner.volume.kubernetes.io/finalizer";
const LOCAL_PATH_ROOT = "/var/local-path-provisioner";

export const requestOf = (claim: KubeObject): unknown => record(record(record(claim.spec).resources).requests).storage;
export const accessModesOf = (object: KubeObject): string[] => list<string>(record(object.spec).accessModes);
export const volumeModeOf = (object: KubeObject): string => String(record(object.spec).volumeMode ?? "Filesystem");

/** An ObjectReference to a claim, as provisioners and the binder write it into a PV. */
export function claimRefTo(claim: StoredObject): Record<string, unknown> {
  return {
    kind: "PersistentVolumeClaim",
    namespace: claim.metadata.namespace,
    name: claim.metadata.name,
    uid: claim.metadata.uid,
    apiVersion: "v1",
    resourceVersion: claim.metadata.resourceVersion,
  };
}

export interface ProvisionRequest {
  claim: StoredObject;
  storageClass: KubeObject;
  profile: ProvisionerProfile;
  /** The selected node; required by a node-pinned provisioner. */
  node?: KubeObject;
  now: Date;
  /** The CSI volume handle to give a CSI volume. */
  volumeHandle: string;
}

/**
 * The PV a provisioner creates for a claim: named pvc-<claim uid>, pre-bound to the claim. A
 * local-path volume is a hostPath directory on the selected node with node affinity to it; a
 * CSI volume has a handle and no affinity.
 */
export function provisionedVolume({ claim, storageClass, profile, node, now, volumeHandle }: ProvisionRequest): KubeObject {
  const name = `pvc-${claim.metadata.uid}`;
  const local = profile.kind === "local";
  const request = requestOf(claim);
  const common = {
    accessModes: accessModesOf(claim),
    // local-path copies the request; a CSI driver reports bytes, which become a BinarySI quantity.
    capacity: { storage: local ? request : formatBinaryQuantity(bytesOf(request)) },
    claimRef: claimRefTo(claim),
    persistentVolumeReclaimPolicy: typeof storageClass.reclaimPolicy === "string" ? storageClass.reclaimPolicy : "Delete",
    storageClassName: storageClass.metadata.name,
    volumeMode: volumeModeOf(claim),
    ...(Array.isArray(storageClass.mountOptions) ? { mountOptions: storageClass.mountOptions } : {}),
  };
  if (local && !node) throw new Error(`${profile.name} needs a selected node to provision ${name}`);
  const spec = local
    ? {
        ...common,
        hostPath: { path: `${LOCAL_PATH_ROOT}/${name}_${claim.metadata.namespace}_${claim.metadata.name}`, type: "DirectoryOrCreate" },
        nodeAffinity: hostnameAffinity(hostnameOf(node!)),
      }
    : {
        ...common,
        csi: {
          driver: profile.name,
          volumeHandle,
          fsType: "ext4",
          volumeAttributes: { "storage.kubernetes.io/csiProvisionerIdentity": `${now.getTime()}-1-${profile.name}` },
        },
      };
  return {
    apiVersion: "v1",
    kind: "PersistentVolume",
    metadata: {
      name,
      annotations: {
        [ANN_PROVISIONED_BY]: profile.name,
        ...(local ? {} : { "volume.kubernetes.io/provisioner-deletion-secret-name": "", "volume.kubernetes.io/provisioner-deletion-secret-namespace": "" }),
      },
      finalizers: local ? [PV_PROTECTION_FINALIZER] : [PROVISIONER_FINALIZER, PV_PROTECTION_FINALIZER],
    },
    spec,
    // What the API server's PV strategy starts a volume with.
    status: { phase: "Pending" },
  };
}

// ---- quantities ----

/** resource.Quantity.Value(): bytes, rounded up. */
export function bytesOf(quantity: unknown): number {
  const value = typeof quantity === "string" ? parseQuantity(quantity) : typeof quantity === "number" ? quantity : null;
  return value === null ? 0 : Math.ceil(value);
}

const BINARY_SUFFIXES = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"];

/** resource.NewQuantity(bytes, BinarySI).String(): 2147483648 → "2Gi", 1000000000 → "1000000000". */
export function formatBinaryQuantity(bytes: number): string {
  let number = Math.round(bytes);
  let exponent = 0;
  while (number !== 0 && number % 1024 === 0 && exponent < BINARY_SUFFIXES.length - 1) {
    number /= 1024;
    exponent++;
  }
  return `${number}${BINARY_SUFFIXES[exponent]}`;
}
