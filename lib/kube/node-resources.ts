import { CoreV1Api, type V1Pod } from "@kubernetes/client-node";
import type { ClusterConnection } from "./cluster-connection.ts";
import { kube, KubeApiError } from "./kube-errors.ts";
import { mergePatch } from "./patch-options.ts";

// Calls about a node as a whole: what runs on it (every pod, not only sandboxes').

export function nodeResources(connection: ClusterConnection) {
  const core = connection.kubeConfig.makeApiClient(CoreV1Api);
  return {
    /** Cordon (true) or uncordon (false), as kubectl does. */
    async setUnschedulable(nodeName: string, unschedulable: boolean): Promise<void> {
      await kube(() => core.patchNode({ name: nodeName, body: { spec: { unschedulable: unschedulable ? true : null } } }, mergePatch));
    },

    /**
     * One eviction through the Eviction API: "evicted", "refused" when a budget says no (429,
     * try again later), or "gone" when the pod is not there any more. With `uid`, only that pod:
     * a replacement under the same name is "gone" for this purpose, never evicted.
     */
    async evictPod(namespace: string, name: string, uid?: string): Promise<"evicted" | "refused" | "gone"> {
      const deleteOptions = uid ? { deleteOptions: { preconditions: { uid } } } : {};
      try {
        await kube(() => core.createNamespacedPodEviction({ namespace, name, body: { apiVersion: "policy/v1", kind: "Eviction", metadata: { namespace, name }, ...deleteOptions } }));
        return "evicted";
      } catch (error) {
        if (error instanceof KubeApiError && error.code === 429) return "refused";
        if (error instanceof KubeApiError && (error.notFound || (uid !== undefined && error.conflict))) return "gone";
        throw error;
      }
    },

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
