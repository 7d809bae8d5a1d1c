import { BERTH_API_GROUP, type ResourceAttributes } from "./access.ts";

// The ClusterRoles Berth ships (Helm chart; seeded in the embedded cluster), as data: what each
// lets a person do through Berth, in RBAC's own terms. Bind berth-viewer and berth-developer in
// a namespace with a RoleBinding, berth-cluster-viewer and berth-platform-admin with a
// ClusterRoleBinding. A RoleBinding cannot grant cluster-scoped resources, which is why the
// cluster-wide reads a developer needs (nodes to see where sandboxes run, storage classes to
// create one) are a role of their own.

export interface PolicyRule {
  apiGroups?: string[];
  resources?: string[];
  verbs: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface BerthRole {
  name: string;
  /** What the role is for, as the docs and the sign-in page say it. */
  description: string;
  /** How it is meant to be bound. */
  binding: "namespace" | "cluster";
  rules: PolicyRule[];
}

const READ = ["get", "list", "watch"];
const EXTENSIONS = "extensions.agents.x-k8s.io";
/** Templates and their pools: what a sandbox can be made from, seen by everyone who sees sandboxes. */
const readTemplates: PolicyRule = { apiGroups: [EXTENSIONS], resources: ["sandboxtemplates", "sandboxwarmpools"], verbs: READ };
const WRITE = ["get", "list", "watch", "create", "update", "patch", "delete"];

const viewerRules: PolicyRule[] = [
  { apiGroups: ["agents.x-k8s.io"], resources: ["sandboxes"], verbs: READ },
  { apiGroups: [""], resources: ["pods", "persistentvolumeclaims", "events"], verbs: READ },
  { apiGroups: ["policy"], resources: ["poddisruptionbudgets"], verbs: READ },
  { apiGroups: ["snapshot.storage.k8s.io"], resources: ["volumesnapshots"], verbs: READ },
  readTemplates,
  { apiGroups: [EXTENSIONS], resources: ["sandboxclaims"], verbs: READ },
];

const developerRules: PolicyRule[] = [
  { apiGroups: ["agents.x-k8s.io"], resources: ["sandboxes"], verbs: WRITE },
  // create: the helper pod that reads a free claim is made as the person (a Sandbox already lets
  // them run pods of their choosing, under the namespace's Pod Security level).
  { apiGroups: [""], resources: ["pods"], verbs: [...READ, "create", "delete"] },
  // A WebSocket exec is authorized as create (older API servers: get).
  { apiGroups: [""], resources: ["pods/exec"], verbs: ["create", "get"] },
  { apiGroups: [""], resources: ["persistentvolumeclaims"], verbs: WRITE },
  { apiGroups: [""], resources: ["events"], verbs: READ },
  { apiGroups: ["policy"], resources: ["poddisruptionbudgets"], verbs: WRITE },
  { apiGroups: ["snapshot.storage.k8s.io"], resources: ["volumesnapshots"], verbs: [...READ, "create", "delete"] },
  // The sandbox's own Secret of secret values, and the names of the namespace's Secrets.
  { apiGroups: [""], resources: ["secrets"], verbs: ["list", "create", "patch", "delete"] },
  readTemplates,
  // A sandbox from a template is a claim on its warm pool; deleting the claim deletes the sandbox.
  { apiGroups: [EXTENSIONS], resources: ["sandboxclaims"], verbs: [...READ, "create", "delete"] },
];

const clusterViewerRules: PolicyRule[] = [
  { apiGroups: [""], resources: ["nodes"], verbs: READ },
  { apiGroups: ["storage.k8s.io"], resources: ["storageclasses"], verbs: READ },
  { apiGroups: [BERTH_API_GROUP], resources: ["settings"], verbs: ["get"] },
];

const platformAdminRules: PolicyRule[] = [
  ...developerRules.filter((rule) => rule !== readTemplates),
  { apiGroups: [EXTENSIONS], resources: ["sandboxtemplates", "sandboxwarmpools"], verbs: WRITE },
  { apiGroups: [""], resources: ["nodes"], verbs: [...READ, "patch"] },
  { apiGroups: [""], resources: ["pods/eviction"], verbs: ["create"] },
  // patch: a volume's reclaim policy; delete: a Released volume, from the clean-up view.
  { apiGroups: [""], resources: ["persistentvolumes"], verbs: [...READ, "patch", "delete"] },
  { apiGroups: ["storage.k8s.io"], resources: ["storageclasses"], verbs: READ },
  { apiGroups: [BERTH_API_GROUP], resources: ["settings"], verbs: ["get", "update"] },
  { apiGroups: [BERTH_API_GROUP], resources: ["maintenanceruns"], verbs: [...READ, "create", "update"] },
  { apiGroups: [BERTH_API_GROUP], resources: ["auditlogs"], verbs: ["get", "list"] },
  { apiGroups: [BERTH_API_GROUP], resources: ["simulator"], verbs: ["get", "create"] },
  { nonResourceURLs: ["/metrics"], verbs: ["get"] },
];

/** Narrowest first: the first role that grants something is the one to ask for. */
export const BERTH_ROLES: BerthRole[] = [
  { name: "berth-viewer", binding: "namespace", description: "Sees the sandboxes, claims and timelines of the namespaces it is bound in", rules: viewerRules },
  { name: "berth-developer", binding: "namespace", description: "Creates, runs, stops and deletes sandboxes and their claims, runs commands and checkpoints, in the namespaces it is bound in", rules: developerRules },
  { name: "berth-cluster-viewer", binding: "cluster", description: "Sees the nodes, the storage classes and the gateway defaults: what every viewer and developer needs across the cluster", rules: clusterViewerRules },
  { name: "berth-platform-admin", binding: "cluster", description: "Everything, in every namespace: templates and warm pools, nodes, maintenance, settings, the audit log, the simulator", rules: platformAdminRules },
];

const matches = (values: string[] | undefined, value: string) => (values ?? []).some((one) => one === "*" || one === value);

/** Whether an RBAC rule grants the request (resourceNames honoured). */
export function ruleGrants(rule: PolicyRule, attributes: ResourceAttributes): boolean {
  const resource = attributes.subresource ? `${attributes.resource}/${attributes.subresource}` : attributes.resource;
  const resourceMatches = (rule.resources ?? []).some((one) => one === "*" || one === resource || (attributes.subresource !== undefined && one === `*/${attributes.subresource}`));
  return (
    matches(rule.apiGroups, attributes.group) &&
    resourceMatches &&
    matches(rule.verbs, attributes.verb) &&
    (!rule.resourceNames?.length || (attributes.name !== undefined && rule.resourceNames.includes(attributes.name)))
  );
}

/** The narrowest of Berth's roles that grants this, to tell a person what to ask for. */
export function roleGranting(attributes: ResourceAttributes): BerthRole | null {
  return BERTH_ROLES.find((role) => role.rules.some((rule) => ruleGrants(rule, attributes)) && (role.binding === "cluster" || attributes.namespace !== undefined)) ?? null;
}

/**
 * What Berth's own service account may do: its caches and its own controllers (status, clean-ups
 * of what it made, auto-recovery, the durable-state marker, maintenance's checkpoints and
 * budgets), asking Kubernetes who people are and what they may do, and acting as them. It cannot
 * cordon or evict: maintenance does both as the person who started it. The Helm chart's ClusterRole
 * holds exactly these rules (charts/berth/chart.test.ts checks it).
 */
export const BERTH_SERVICE_ACCOUNT_RULES: PolicyRule[] = [
  { apiGroups: ["agents.x-k8s.io"], resources: ["sandboxes"], verbs: ["get", "list", "watch", "create", "patch", "delete"] },
  { apiGroups: [""], resources: ["pods"], verbs: ["get", "list", "watch", "delete"] },
  { apiGroups: [""], resources: ["pods/exec"], verbs: ["get", "create"] },
  { apiGroups: [""], resources: ["persistentvolumeclaims"], verbs: ["get", "list", "watch", "create", "patch", "delete"] },
  { apiGroups: [""], resources: ["persistentvolumes"], verbs: ["list", "watch"] },
  { apiGroups: [""], resources: ["events"], verbs: ["list", "watch"] },
  { apiGroups: [""], resources: ["nodes"], verbs: ["list", "watch"] },
  { apiGroups: [""], resources: ["namespaces"], verbs: ["list", "watch"] },
  { apiGroups: ["policy"], resources: ["poddisruptionbudgets"], verbs: ["get", "list", "watch", "create", "patch", "delete"] },
  { apiGroups: ["storage.k8s.io"], resources: ["storageclasses"], verbs: ["get", "list"] },
  { apiGroups: ["snapshot.storage.k8s.io"], resources: ["volumesnapshots"], verbs: ["get", "create"] },
  // The Templates page lists every namespace's at once, then shows each person those they may list.
  { apiGroups: [EXTENSIONS], resources: ["sandboxtemplates", "sandboxwarmpools"], verbs: ["list"] },
  { apiGroups: ["snapshot.storage.k8s.io"], resources: ["volumesnapshotclasses"], verbs: ["list"] },
  { apiGroups: [""], resources: ["users", "groups"], verbs: ["impersonate"] },
  { apiGroups: ["authorization.k8s.io"], resources: ["subjectaccessreviews"], verbs: ["create"] },
  { apiGroups: ["authentication.k8s.io"], resources: ["tokenreviews"], verbs: ["create"] },
];

/**
 * Reading the kubelets' volume stats (how full each mounted claim is) through the API server's
 * node proxy. Not among the rules above: `get` on nodes/proxy reaches every kubelet endpoint, so
 * a cluster grants it on purpose (the chart's rbac.readVolumeUsage). Without it, usage is unknown.
 */
export const BERTH_VOLUME_USAGE_RULE: PolicyRule = { apiGroups: [""], resources: ["nodes/proxy"], verbs: ["get"] };

/**
 * What Berth's service account may do in its own namespace when replicas share PostgreSQL: elect
 * their one writer on a Lease (lib/kube/leader-election.ts). The chart's Role holds exactly these
 * rules (charts/berth/chart.test.ts checks it).
 */
export const BERTH_LEADER_ELECTION_RULES: PolicyRule[] = [{ apiGroups: ["coordination.k8s.io"], resources: ["leases"], verbs: ["get", "create", "update"] }];
