import { CoreV1Api, RbacAuthorizationV1Api, type RbacV1Subject, type V1PolicyRule } from "@kubernetes/client-node";
import type { ClusterConnection } from "./cluster-connection.ts";
import { kube, KubeApiError } from "./kube-errors.ts";

// The objects that say who may do what — namespaces with their labels, ClusterRoles, bindings,
// service accounts and their tokens — made to be as declared: created when missing, their rules,
// subjects and labels put back when they differ. Used to seed the embedded cluster.

async function createOrReplace(create: () => Promise<unknown>, replace: () => Promise<unknown>): Promise<void> {
  try {
    await kube(create);
  } catch (error) {
    if (!(error instanceof KubeApiError && error.alreadyExists)) throw error;
    await kube(replace);
  }
}

export type Subject = RbacV1Subject;
export const group = (name: string): Subject => ({ kind: "Group", apiGroup: "rbac.authorization.k8s.io", name });
export const serviceAccount = (namespace: string, name: string): Subject => ({ kind: "ServiceAccount", namespace, name });

export function accessObjects(connection: ClusterConnection) {
  const core = connection.kubeConfig.makeApiClient(CoreV1Api);
  const rbac = connection.kubeConfig.makeApiClient(RbacAuthorizationV1Api);

  return {
    /** The namespace, with at least these labels. */
    async ensureNamespace(name: string, labels: Record<string, string>): Promise<void> {
      try {
        await kube(() => core.createNamespace({ body: { metadata: { name, labels } } }));
      } catch (error) {
        if (!(error instanceof KubeApiError && error.alreadyExists)) throw error;
        const current = await kube(() => core.readNamespace({ name }));
        if (Object.entries(labels).every(([key, value]) => current.metadata?.labels?.[key] === value)) return;
        await kube(() => core.replaceNamespace({ name, body: { ...current, metadata: { ...current.metadata, labels: { ...current.metadata?.labels, ...labels } } } }));
      }
    },

    ensureClusterRole: (name: string, rules: V1PolicyRule[], labels: Record<string, string> = {}) =>
      createOrReplace(
        () => rbac.createClusterRole({ body: { metadata: { name, labels }, rules } }),
        async () => {
          const current = await rbac.readClusterRole({ name });
          return rbac.replaceClusterRole({ name, body: { ...current, metadata: { ...current.metadata, labels: { ...current.metadata?.labels, ...labels } }, rules } });
        },
      ),

    ensureClusterRoleBinding: (name: string, clusterRole: string, subjects: Subject[]) =>
      createOrReplace(
        () => rbac.createClusterRoleBinding({ body: { metadata: { name }, roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: clusterRole }, subjects } }),
        async () => {
          const current = await rbac.readClusterRoleBinding({ name });
          return rbac.replaceClusterRoleBinding({ name, body: { ...current, subjects } });
        },
      ),

    /** A RoleBinding in `namespace` to a ClusterRole: its permissions there only. */
    ensureRoleBinding: (namespace: string, name: string, clusterRole: string, subjects: Subject[]) =>
      createOrReplace(
        () => rbac.createNamespacedRoleBinding({ namespace, body: { metadata: { name, namespace }, roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: clusterRole }, subjects } }),
        async () => {
          const current = await rbac.readNamespacedRoleBinding({ namespace, name });
          return rbac.replaceNamespacedRoleBinding({ namespace, name, body: { ...current, subjects } });
        },
      ),

    ensureServiceAccount: (namespace: string, name: string) =>
      createOrReplace(
        () => core.createNamespacedServiceAccount({ namespace, body: { metadata: { name, namespace } } }),
        async () => undefined,
      ),

    /** A token for the service account (TokenRequest), valid for `expirationSeconds`. */
    async requestToken(namespace: string, name: string, expirationSeconds: number): Promise<{ token: string; expiresAt: Date }> {
      const answer = await kube(() =>
        core.createNamespacedServiceAccountToken({ namespace, name, body: { apiVersion: "authentication.k8s.io/v1", kind: "TokenRequest", spec: { audiences: [], expirationSeconds } } }),
      );
      const token = answer.status?.token;
      if (!token) throw new Error(`The API server answered the token request for ${namespace}/${name} without a token`);
      return { token, expiresAt: new Date(answer.status?.expirationTimestamp ?? Date.now() + expirationSeconds * 1000) };
    },
  };
}
