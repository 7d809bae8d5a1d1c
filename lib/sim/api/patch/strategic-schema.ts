// Patch metadata for strategic merge patch: which lists merge, and by which key. Copied from the
// `patchStrategy` / `patchMergeKey` struct tags of k8s.io/api (core/v1, policy/v1) and
// k8s.io/apimachinery (meta/v1 ObjectMeta); a field not listed here has no strategy, so a list
// is replaced and an object merges key by key (that is also what the real code does for a
// map[string]string such as labels).
//
// Only the types Berth and kubectl patch are described; every other field of them behaves as an
// untagged field, which is right for all of them except the few tagged ones left out below.

import { groupOf } from "../../k8s-objects.ts";

export interface PatchFieldMeta {
  /** The patchStrategy tag without "retainKeys": "merge", "replace", or absent (the default). */
  readonly patchStrategy?: "merge" | "replace";
  /** The tag also names retainKeys (volumes, resourceClaims); a `$retainKeys` directive is honoured everywhere anyway. */
  readonly retainKeys?: boolean;
  /** patchMergeKey: the key list items are matched by. Absent for a merging list of primitives (set union). */
  readonly patchMergeKey?: string;
  /** The Go struct of the field, or of the list's items. */
  readonly schema?: PatchSchema;
}

export interface PatchSchema {
  /** The Go struct name, as error messages show it. */
  readonly name: string;
  readonly fields: Readonly<Record<string, PatchFieldMeta>>;
}

const struct = (name: string, fields: Record<string, PatchFieldMeta> = {}): PatchSchema => ({ name, fields });
const mergeBy = (patchMergeKey: string, schema?: PatchSchema, retainKeys = false): PatchFieldMeta => ({
  patchStrategy: "merge",
  patchMergeKey,
  ...(schema ? { schema } : {}),
  ...(retainKeys ? { retainKeys } : {}),
});
const nested = (schema: PatchSchema): PatchFieldMeta => ({ schema });

/** A struct with no tagged fields, for anything the table does not describe. */
export const UNTYPED: PatchSchema = struct("");

// k8s.io/apimachinery/pkg/apis/meta/v1 ObjectMeta
export const OBJECT_META = struct("ObjectMeta", {
  // Finalizers []string `json:"finalizers,omitempty" patchStrategy:"merge"` (+listType=set)
  finalizers: { patchStrategy: "merge" },
  // OwnerReferences []OwnerReference `patchStrategy:"merge" patchMergeKey:"uid"`
  ownerReferences: mergeBy("uid", struct("OwnerReference")),
  // ManagedFields: no strategy (replaced).
});

// core/v1 Container and EphemeralContainerCommon share these tags.
const containerFields: Record<string, PatchFieldMeta> = {
  ports: mergeBy("containerPort", struct("ContainerPort")),
  env: mergeBy("name", struct("EnvVar")),
  volumeMounts: mergeBy("mountPath", struct("VolumeMount")),
  volumeDevices: mergeBy("devicePath", struct("VolumeDevice")),
  // envFrom, resizePolicy, command, args: no strategy.
};
export const CONTAINER = struct("Container", containerFields);
export const EPHEMERAL_CONTAINER = struct("EphemeralContainer", containerFields);

export const POD_SPEC = struct("PodSpec", {
  volumes: mergeBy("name", struct("Volume"), true), // patchStrategy:"merge,retainKeys"
  initContainers: mergeBy("name", CONTAINER),
  containers: mergeBy("name", CONTAINER),
  ephemeralContainers: mergeBy("name", EPHEMERAL_CONTAINER),
  imagePullSecrets: mergeBy("name", struct("LocalObjectReference")),
  hostAliases: mergeBy("ip", struct("HostAlias")),
  topologySpreadConstraints: mergeBy("topologyKey", struct("TopologySpreadConstraint")),
  schedulingGates: mergeBy("name", struct("PodSchedulingGate")),
  resourceClaims: mergeBy("name", struct("PodResourceClaim"), true), // patchStrategy:"merge,retainKeys"
  // tolerations, readinessGates: no strategy (replaced).
});

export const POD_STATUS = struct("PodStatus", {
  conditions: mergeBy("type", struct("PodCondition")),
  podIPs: mergeBy("ip", struct("PodIP")),
  hostIPs: mergeBy("ip", struct("HostIP")),
  resourceClaimStatuses: mergeBy("name", struct("PodResourceClaimStatus"), true),
  // containerStatuses, initContainerStatuses, ephemeralContainerStatuses: no strategy, a patch
  // replaces the whole list (the kubelet sends them complete).
});

export const POD = struct("Pod", { metadata: nested(OBJECT_META), spec: nested(POD_SPEC), status: nested(POD_STATUS) });

export const NODE_SPEC = struct("NodeSpec", {
  // PodCIDRs []string `patchStrategy:"merge"`
  podCIDRs: { patchStrategy: "merge" },
  // Taints []Taint `json:"taints,omitempty"`: NO strategy. Patching spec.taints replaces the
  // whole list (kubectl taint reads, edits and sends it all).
});

export const NODE_STATUS = struct("NodeStatus", {
  conditions: mergeBy("type", struct("NodeCondition")),
  addresses: mergeBy("type", struct("NodeAddress")),
  // images, volumesInUse, volumesAttached: no strategy.
});

export const NODE = struct("Node", { metadata: nested(OBJECT_META), spec: nested(NODE_SPEC), status: nested(NODE_STATUS) });

export const PERSISTENT_VOLUME_CLAIM = struct("PersistentVolumeClaim", {
  metadata: nested(OBJECT_META),
  spec: nested(struct("PersistentVolumeClaimSpec")),
  status: nested(struct("PersistentVolumeClaimStatus", { conditions: mergeBy("type", struct("PersistentVolumeClaimCondition")) })),
});

export const PERSISTENT_VOLUME = struct("PersistentVolume", {
  metadata: nested(OBJECT_META),
  spec: nested(struct("PersistentVolumeSpec")),
  status: nested(struct("PersistentVolumeStatus")),
});

export const NAMESPACE = struct("Namespace", {
  metadata: nested(OBJECT_META),
  // NamespaceSpec.Finalizers []FinalizerName: no strategy (+listType=atomic).
  spec: nested(struct("NamespaceSpec")),
  status: nested(struct("NamespaceStatus", { conditions: mergeBy("type", struct("NamespaceCondition")) })),
});

export const EVENT = struct("Event", { metadata: nested(OBJECT_META) });

export const SERVICE = struct("Service", {
  metadata: nested(OBJECT_META),
  // ServiceSpec.Ports: patchStrategy merge, patchMergeKey port.
  spec: nested(struct("ServiceSpec", { ports: mergeBy("port", struct("ServicePort")) })),
  status: nested(struct("ServiceStatus", { conditions: mergeBy("type", struct("Condition")) })),
});

export const POD_DISRUPTION_BUDGET = struct("PodDisruptionBudget", {
  metadata: nested(OBJECT_META),
  spec: nested(struct("PodDisruptionBudgetSpec")),
  status: nested(struct("PodDisruptionBudgetStatus", { conditions: mergeBy("type", struct("Condition")) })),
});

const metadataOnly = (name: string) => struct(name, { metadata: nested(OBJECT_META) });

// core/v1 PodTemplateSpec, as apps/v1 workloads hold it.
const POD_TEMPLATE_SPEC = struct("PodTemplateSpec", { metadata: nested(OBJECT_META), spec: nested(POD_SPEC) });

/** apps/v1 Deployment and ReplicaSet: the template's pod spec merges as a pod's; conditions by type. */
const workload = (kind: string) =>
  struct(kind, {
    metadata: nested(OBJECT_META),
    spec: nested(struct(`${kind}Spec`, { template: nested(POD_TEMPLATE_SPEC) })),
    status: nested(struct(`${kind}Status`, { conditions: mergeBy("type", struct(`${kind}Condition`)) })),
  });

/**
 * The built-in kinds the simulated cluster serves, keyed "group/Kind" ("" group for core/v1).
 * Custom resources are absent on purpose: kube-apiserver refuses strategic merge patch for them.
 */
export const STRATEGIC_MERGE_SCHEMAS: Readonly<Record<string, PatchSchema>> = {
  "/Pod": POD,
  "/Node": NODE,
  "/PersistentVolumeClaim": PERSISTENT_VOLUME_CLAIM,
  "/PersistentVolume": PERSISTENT_VOLUME,
  "/Namespace": NAMESPACE,
  "/Event": EVENT,
  "/Service": SERVICE,
  "/Binding": metadataOnly("Binding"),
  "events.k8s.io/Event": metadataOnly("Event"),
  "policy/PodDisruptionBudget": POD_DISRUPTION_BUDGET,
  "policy/Eviction": metadataOnly("Eviction"),
  "coordination.k8s.io/Lease": metadataOnly("Lease"),
  "storage.k8s.io/StorageClass": metadataOnly("StorageClass"),
  "/ConfigMap": metadataOnly("ConfigMap"),
  "/Secret": metadataOnly("Secret"),
  "/ServiceAccount": struct("ServiceAccount", { metadata: nested(OBJECT_META), secrets: mergeBy("name", struct("ObjectReference")) }),
  "rbac.authorization.k8s.io/Role": metadataOnly("Role"),
  "rbac.authorization.k8s.io/RoleBinding": metadataOnly("RoleBinding"),
  "rbac.authorization.k8s.io/ClusterRole": metadataOnly("ClusterRole"),
  "rbac.authorization.k8s.io/ClusterRoleBinding": metadataOnly("ClusterRoleBinding"),
  "apiextensions.k8s.io/CustomResourceDefinition": metadataOnly("CustomResourceDefinition"),
  "apps/Deployment": workload("Deployment"),
  "apps/ReplicaSet": workload("ReplicaSet"),
  "autoscaling/Scale": metadataOnly("Scale"),
};

/**
 * The patch metadata for a kind, or undefined when the kind does not support strategic merge
 * patch (custom resources such as agents.x-k8s.io Sandbox, snapshot.storage.k8s.io
 * VolumeSnapshot): the API server then answers 415 with `unsupportedMediaType()`.
 */
export function strategicMergePatchSchemaFor(apiVersion: string, kind: string): PatchSchema | undefined {
  const key = `${groupOf(apiVersion)}/${kind}`;
  return Object.hasOwn(STRATEGIC_MERGE_SCHEMAS, key) ? STRATEGIC_MERGE_SCHEMAS[key] : undefined;
}

/** Whether kube-apiserver accepts application/strategic-merge-patch+json for this kind. */
export function supportsStrategicMergePatch(apiVersion: string, kind: string): boolean {
  return strategicMergePatchSchemaFor(apiVersion, kind) !== undefined;
}
