import { z } from "zod";

// What a request asks Kubernetes' authorizer, in SubjectAccessReview's own terms. Kubernetes
// objects are named by their API group and resource; what is Berth's own and not a Kubernetes
// object (settings, maintenance runs, the audit log, the simulator) is a virtual resource of
// Berth's API group, so that one RBAC model — and `kubectl auth can-i` — covers everything.

export const BERTH_API_GROUP = "berth.dev";

export const RESOURCE_VERBS = ["get", "list", "watch", "create", "update", "patch", "delete", "deletecollection"] as const;
export const resourceVerbSchema = z.enum(RESOURCE_VERBS);
export type ResourceVerb = z.infer<typeof resourceVerbSchema>;

export const resourceAttributesSchema = z.object({
  verb: resourceVerbSchema,
  group: z.string(),
  resource: z.string().min(1),
  subresource: z.string().min(1).optional(),
  /** Absent: the question is asked at the cluster scope (every namespace, or a cluster-scoped resource). */
  namespace: z.string().min(1).optional(),
  name: z.string().min(1).optional(),
});
export type ResourceAttributes = z.infer<typeof resourceAttributesSchema>;

export const nonResourceAttributesSchema = z.object({
  path: z.string().startsWith("/"),
  verb: z.string().min(1),
});
export type NonResourceAttributes = z.infer<typeof nonResourceAttributesSchema>;

export type AccessAttributes = { resource: ResourceAttributes } | { nonResource: NonResourceAttributes };

/** The Kubernetes resources Berth acts on for people, by the name a person reads in a refusal. */
export const KUBERNETES_RESOURCES = {
  sandboxes: { group: "agents.x-k8s.io", resource: "sandboxes" },
  sandboxTemplates: { group: "extensions.agents.x-k8s.io", resource: "sandboxtemplates" },
  sandboxWarmPools: { group: "extensions.agents.x-k8s.io", resource: "sandboxwarmpools" },
  sandboxClaims: { group: "extensions.agents.x-k8s.io", resource: "sandboxclaims" },
  pods: { group: "", resource: "pods" },
  persistentVolumeClaims: { group: "", resource: "persistentvolumeclaims" },
  persistentVolumes: { group: "", resource: "persistentvolumes" },
  nodes: { group: "", resource: "nodes" },
  storageClasses: { group: "storage.k8s.io", resource: "storageclasses" },
  podDisruptionBudgets: { group: "policy", resource: "poddisruptionbudgets" },
  volumeSnapshots: { group: "snapshot.storage.k8s.io", resource: "volumesnapshots" },
  events: { group: "", resource: "events" },
  secrets: { group: "", resource: "secrets" },
} as const;

/** Berth's own resources, authorized as resources of berth.dev. */
export const BERTH_RESOURCES = {
  settings: { group: BERTH_API_GROUP, resource: "settings" },
  maintenanceRuns: { group: BERTH_API_GROUP, resource: "maintenanceruns" },
  auditLogs: { group: BERTH_API_GROUP, resource: "auditlogs" },
  simulator: { group: BERTH_API_GROUP, resource: "simulator" },
} as const;

/**
 * How discovery names Berth's own resources. The chart declares them to the API server
 * (lib/render/berth-resource-definitions.ts) for one reason: `kubectl auth can-i` splits
 * `maintenanceruns.berth.dev` into resource and group only for a resource discovery knows, and
 * otherwise asks about a resource named "maintenanceruns.berth.dev" in the core group.
 */
export const BERTH_RESOURCE_NAMES: Record<keyof typeof BERTH_RESOURCES, { kind: string; singular: string }> = {
  settings: { kind: "Setting", singular: "setting" },
  maintenanceRuns: { kind: "MaintenanceRun", singular: "maintenancerun" },
  auditLogs: { kind: "AuditLog", singular: "auditlog" },
  simulator: { kind: "Simulator", singular: "simulator" },
};

/** "sandboxes.agents.x-k8s.io", "pods/exec", "nodes": how Kubernetes names a resource in its messages. */
export function qualifiedResource(attributes: Pick<ResourceAttributes, "group" | "resource" | "subresource">): string {
  const resource = attributes.subresource ? `${attributes.resource}/${attributes.subresource}` : attributes.resource;
  return attributes.group ? `${resource}.${attributes.group}` : resource;
}

/**
 * A refusal in the API server's own words: `User "alice" cannot create resource "sandboxes" in
 * API group "agents.x-k8s.io" in the namespace "team-b"`.
 */
export function refusalMessage(username: string, attributes: AccessAttributes): string {
  if ("nonResource" in attributes) return `User "${username}" cannot ${attributes.nonResource.verb} path "${attributes.nonResource.path}"`;
  const { verb, group, resource, subresource, namespace } = attributes.resource;
  const where = namespace ? `in the namespace "${namespace}"` : "at the cluster scope";
  return `User "${username}" cannot ${verb} resource "${subresource ? `${resource}/${subresource}` : resource}" in API group "${group}" ${where}`;
}
