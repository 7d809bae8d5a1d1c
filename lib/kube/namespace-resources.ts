import { CoreV1Api } from "@kubernetes/client-node";
import type { ClusterConnection } from "./cluster-connection.ts";
import { kube } from "./kube-errors.ts";

/** The names of the namespaces that match `labelSelector` (every namespace when absent). */
export async function listNamespaceNames(connection: ClusterConnection, labelSelector?: string): Promise<string[]> {
  const list = await kube(() => connection.kubeConfig.makeApiClient(CoreV1Api).listNamespace(labelSelector ? { labelSelector } : {}));
  return list.items.map((namespace) => namespace.metadata?.name ?? "").filter(Boolean).sort();
}
