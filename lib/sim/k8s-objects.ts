import { isRecord, type KubeObject, type OwnerReference, type StoredObject } from "./objects.ts";

// Typed views of the fields the simulated controllers read and write, and the helpers they share.

export interface Condition {
  type: string;
  status: "True" | "False" | "Unknown";
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  lastProbeTime?: string | null;
  lastHeartbeatTime?: string;
  observedGeneration?: number;
}

export const refs = {
  namespaces: { group: "", resource: "namespaces" },
  nodes: { group: "", resource: "nodes" },
  pods: { group: "", resource: "pods" },
  claims: { group: "", resource: "persistentvolumeclaims" },
  volumes: { group: "", resource: "persistentvolumes" },
  events: { group: "", resource: "events" },
  services: { group: "", resource: "services" },
  storageClasses: { group: "storage.k8s.io", resource: "storageclasses" },
  budgets: { group: "policy", resource: "poddisruptionbudgets" },
  leases: { group: "coordination.k8s.io", resource: "leases" },
  snapshots: { group: "snapshot.storage.k8s.io", resource: "volumesnapshots" },
  snapshotClasses: { group: "snapshot.storage.k8s.io", resource: "volumesnapshotclasses" },
  sandboxes: { group: "agents.x-k8s.io", resource: "sandboxes" },
  serviceAccounts: { group: "", resource: "serviceaccounts" },
  secrets: { group: "", resource: "secrets" },
  roles: { group: "rbac.authorization.k8s.io", resource: "roles" },
  roleBindings: { group: "rbac.authorization.k8s.io", resource: "rolebindings" },
  clusterRoles: { group: "rbac.authorization.k8s.io", resource: "clusterroles" },
  clusterRoleBindings: { group: "rbac.authorization.k8s.io", resource: "clusterrolebindings" },
} as const;

export function record(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

export function list<T = Record<string, unknown>>(value: unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : [];
}

export function spec(object: KubeObject): Record<string, unknown> {
  if (!isRecord(object.spec)) object.spec = {};
  return object.spec as Record<string, unknown>;
}

export function status(object: KubeObject): Record<string, unknown> {
  if (!isRecord(object.status)) object.status = {};
  return object.status as Record<string, unknown>;
}

export function conditions(object: KubeObject): Condition[] {
  return list<Condition>(record(object.status).conditions);
}

export function findCondition(object: KubeObject, type: string): Condition | undefined {
  return conditions(object).find((condition) => condition.type === type);
}

/**
 * Sets a condition the way Kubernetes' meta.SetStatusCondition does: lastTransitionTime moves
 * only when the status changes; reason, message and observedGeneration follow the new one.
 * Returns whether anything changed.
 */
export function setCondition(object: KubeObject, condition: Condition, now: string): boolean {
  const all = conditions(object);
  const existing = all.find((one) => one.type === condition.type);
  if (
    existing && existing.status === condition.status && existing.reason === condition.reason && existing.message === condition.message &&
    existing.observedGeneration === condition.observedGeneration
  ) {
    return false;
  }
  const next: Condition = {
    ...condition,
    lastTransitionTime: existing && existing.status === condition.status ? existing.lastTransitionTime ?? now : now,
  };
  status(object).conditions = existing ? all.map((one) => (one.type === condition.type ? next : one)) : [...all, next];
  return true;
}

export function removeCondition(object: KubeObject, type: string): void {
  status(object).conditions = conditions(object).filter((condition) => condition.type !== type);
}

export function ownerReferenceTo(owner: StoredObject, controller = true): OwnerReference {
  return { apiVersion: owner.apiVersion, kind: owner.kind, name: owner.metadata.name, uid: owner.metadata.uid, controller, blockOwnerDeletion: true };
}

/** "v1" → "", "policy/v1" → "policy". */
export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf("/");
  return slash < 0 ? "" : apiVersion.slice(0, slash);
}

/** controllerutil.SetControllerReference: replaces a reference to the same object (by group, kind and name), else appends. */
export function setControllerReference(object: KubeObject, owner: StoredObject): void {
  const reference = ownerReferenceTo(owner);
  const others = (object.metadata.ownerReferences ?? []).filter(
    (one) => !(groupOf(one.apiVersion) === groupOf(reference.apiVersion) && one.kind === reference.kind && one.name === reference.name),
  );
  object.metadata.ownerReferences = [...others, reference];
}

export function controllerOf(object: KubeObject): OwnerReference | undefined {
  return object.metadata.ownerReferences?.find((reference) => reference.controller);
}

export function keyOf(object: KubeObject): string {
  return object.metadata.namespace ? `${object.metadata.namespace}/${object.metadata.name}` : object.metadata.name ?? "";
}

export function splitKey(key: string): { namespace: string | undefined; name: string } {
  const slash = key.indexOf("/");
  return slash === -1 ? { namespace: undefined, name: key } : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}

/** Kubernetes timestamps: RFC 3339 with second precision. */
export function timestamp(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** FNV-1a 32-bit, as agent-sandbox hashes a sandbox name into its pods' label. */
export function fnv1a32(text: string): string {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

export type Pod = StoredObject;
export const podPhase = (pod: KubeObject): string => String(record(pod.status).phase ?? "Pending");
export const isPodReady = (pod: KubeObject): boolean => findCondition(pod, "Ready")?.status === "True";
export const nodeNameOf = (pod: KubeObject): string | undefined => record(pod.spec).nodeName as string | undefined;
