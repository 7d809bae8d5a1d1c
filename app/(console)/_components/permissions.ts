import { roleGranting } from "@/lib/domain/berth-roles.ts";
import { CLUSTER_CAPABILITIES, NAMESPACE_CAPABILITIES, type ClusterCapability, type NamespaceCapability, type WhoAmI } from "@/lib/domain/who-am-i.ts";

// Whether the signed-in person may do something, from what Kubernetes answered for them
// (GET /api/v1/whoami), and if not, which of Berth's roles they would need. Pure: pages on the
// server and controls in the browser ask the same.

export type Permission = { allowed: true } | { allowed: false; reason: string };

/** Whether the person may do this in `namespace`, and if not, what to ask for. */
export function permissionIn(you: WhoAmI, capability: NamespaceCapability, namespace: string): Permission {
  if (you.namespaces.find((entry) => entry.namespace === namespace)?.may.includes(capability)) return { allowed: true };
  const role = roleGranting({ ...NAMESPACE_CAPABILITIES[capability], namespace });
  return { allowed: false, reason: role ? `You need ${role.name} in ${namespace}.` : `Kubernetes does not let you do this in ${namespace}.` };
}

/** Whether the person may do this across the cluster, and if not, what to ask for. */
export function permissionOnCluster(you: WhoAmI, capability: ClusterCapability): Permission {
  if (you.cluster.includes(capability)) return { allowed: true };
  const role = roleGranting(CLUSTER_CAPABILITIES[capability]);
  return { allowed: false, reason: role ? `You need ${role.name}.` : "Kubernetes does not let you do this." };
}

