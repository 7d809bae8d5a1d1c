import { CoreV1Api } from "@kubernetes/client-node";
import { UNOFFERED_SECRET_TYPES, type SecretName } from "../domain/secret-names.ts";
import type { ClusterConnection } from "./cluster-connection.ts";
import { kube } from "./kube-errors.ts";

// The Secrets of a namespace, as the person may list them, reduced to names and keys: the
// values Kubernetes sends along are dropped here, before anything else sees them.

export async function listSecretNames(connection: ClusterConnection, namespace: string): Promise<SecretName[]> {
  const core = connection.kubeConfig.makeApiClient(CoreV1Api);
  const secrets = await kube(() => core.listNamespacedSecret({ namespace }));
  return secrets.items
    .filter((secret) => !UNOFFERED_SECRET_TYPES.includes(secret.type ?? "Opaque"))
    .map((secret) => ({ name: secret.metadata?.name ?? "", keys: Object.keys(secret.data ?? {}).sort() }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
