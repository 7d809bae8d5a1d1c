import { refs } from "../k8s-objects.ts";
import type { KubeObject } from "../objects.ts";
import type { ObjectStore } from "../store/object-store.ts";
import { AUTHENTICATED, MASTERS, UNAUTHENTICATED } from "./users.ts";

// The RBAC objects kube-apiserver's bootstrap policy makes (k8s.io/kubernetes/plugin/pkg/auth/
// authorizer/rbac/bootstrappolicy), the few a cluster needs to be usable: cluster-admin for
// system:masters, health and version for everyone, discovery and self-reviews for everyone
// signed in. Like the real server, missing ones are made at every start and others left alone.

const BOOTSTRAP_LABELS = { "kubernetes.io/bootstrapping": "rbac-defaults" };

function clusterRole(name: string, rules: Record<string, unknown>[]): KubeObject {
  return { apiVersion: "rbac.authorization.k8s.io/v1", kind: "ClusterRole", metadata: { name, labels: BOOTSTRAP_LABELS, annotations: { "rbac.authorization.kubernetes.io/autoupdate": "true" } }, rules };
}

function clusterRoleBinding(name: string, role: string, groups: string[]): KubeObject {
  return {
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "ClusterRoleBinding",
    metadata: { name, labels: BOOTSTRAP_LABELS, annotations: { "rbac.authorization.kubernetes.io/autoupdate": "true" } },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: role },
    subjects: groups.map((group) => ({ kind: "Group", apiGroup: "rbac.authorization.k8s.io", name: group })),
  };
}

export const BOOTSTRAP_CLUSTER_ROLES: KubeObject[] = [
  clusterRole("cluster-admin", [{ apiGroups: ["*"], resources: ["*"], verbs: ["*"] }, { nonResourceURLs: ["*"], verbs: ["*"] }]),
  clusterRole("system:public-info-viewer", [{ nonResourceURLs: ["/healthz", "/livez", "/readyz", "/version", "/version/"], verbs: ["get"] }]),
  clusterRole("system:discovery", [{ nonResourceURLs: ["/api", "/api/*", "/apis", "/apis/*", "/healthz", "/livez", "/openapi", "/openapi/*", "/readyz", "/version", "/version/"], verbs: ["get"] }]),
  clusterRole("system:basic-user", [
    { apiGroups: ["authorization.k8s.io"], resources: ["selfsubjectaccessreviews", "selfsubjectrulesreviews"], verbs: ["create"] },
    { apiGroups: ["authentication.k8s.io"], resources: ["selfsubjectreviews"], verbs: ["create"] },
  ]),
];

export const BOOTSTRAP_CLUSTER_ROLE_BINDINGS: KubeObject[] = [
  clusterRoleBinding("cluster-admin", "cluster-admin", [MASTERS]),
  clusterRoleBinding("system:public-info-viewer", "system:public-info-viewer", [AUTHENTICATED, UNAUTHENTICATED]),
  clusterRoleBinding("system:discovery", "system:discovery", [AUTHENTICATED]),
  clusterRoleBinding("system:basic-user", "system:basic-user", [AUTHENTICATED]),
];

/** Makes the bootstrap roles and bindings that are missing (a new cluster, or one saved before they existed). */
export function ensureBootstrapPolicy(store: ObjectStore): void {
  for (const role of BOOTSTRAP_CLUSTER_ROLES) if (!store.peek(refs.clusterRoles, undefined, role.metadata.name!)) store.create(refs.clusterRoles, structuredClone(role));
  for (const binding of BOOTSTRAP_CLUSTER_ROLE_BINDINGS) if (!store.peek(refs.clusterRoleBindings, undefined, binding.metadata.name!)) store.create(refs.clusterRoleBindings, structuredClone(binding));
}
