import { CoreV1Api, type V1Pod } from "@kubernetes/client-node";
import type { ClusterConnection } from "./cluster-connection.ts";
import { kube } from "./kube-errors.ts";

// Calls about a node as a whole: what runs on it (every pod, not only sandboxes').

export function nodeResources(connection: ClusterConnection) {
  const core = connection.kubeConfig.makeApiClient(CoreV1Api);
  return {
    async listPodsOnNode(nodeName: string): Promise<V1Pod[]> {
      const pods: V1Pod[] = [];
      let token: string | undefined;
      do {
        const page = await kube(() => core.listPodForAllNamespaces({ fieldSelector: `spec.nodeName=${nodeName}`, limit: 500, _continue: token }));
        pods.push(...page.items);
        token = page.metadata?._continue || undefined;
      } while (token);
      return pods;
    },
  };
}
