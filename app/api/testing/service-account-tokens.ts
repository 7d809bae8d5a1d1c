import { accessObjects, serviceAccount } from "@/lib/kube/access-objects.ts";
import type { ClusterConnection } from "@/lib/kube/cluster-connection.ts";

// A Kubernetes bearer token for someone with exactly the Berth roles a test gives them: a
// service account, its bindings, and a token from TokenRequest — how a script or the CLI
// signs in (`berth login --token`).

export interface TokenHolder {
  namespace: string;
  name: string;
  /** Berth's ClusterRoles, each bound in a namespace (RoleBinding) or cluster-wide (no namespace). */
  roles?: { clusterRole: string; namespace?: string }[];
}

export async function serviceAccountToken(admin: ClusterConnection, holder: TokenHolder): Promise<string> {
  const objects = accessObjects(admin);
  await objects.ensureServiceAccount(holder.namespace, holder.name);
  const subject = [serviceAccount(holder.namespace, holder.name)];
  for (const { clusterRole, namespace } of holder.roles ?? []) {
    const binding = `${holder.name}-${clusterRole}`;
    if (namespace) await objects.ensureRoleBinding(namespace, binding, clusterRole, subject);
    else await objects.ensureClusterRoleBinding(`${holder.namespace}-${binding}`, clusterRole, subject);
  }
  return (await objects.requestToken(holder.namespace, holder.name, 3600)).token;
}
