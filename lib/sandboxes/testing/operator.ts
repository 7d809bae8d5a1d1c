// What a cluster operator does with kubectl, done through the API exactly as kubectl does it, so
// that a test can disrupt sandboxes the same way on the embedded cluster and on a real one.
// Deliberately not Berth's own lib/kube: the operator is not Berth.
import { ApiException, CoreV1Api, CustomObjectsApi, PatchStrategy, PolicyV1Api, setHeaderOptions, type KubernetesObject, type V1PersistentVolume, type V1PersistentVolumeClaim, type V1Pod, type V1PodDisruptionBudget } from "@kubernetes/client-node";
import type { ClusterConnection } from "../../kube/cluster-connection.ts";
import { mergePatch } from "../../kube/patch-options.ts";

export interface DrainOutcome {
  evicted: string[];
  /** Pods whose eviction a PodDisruptionBudget still refused when the drain gave up. */
  blocked: string[];
}

const EXTENSIONS_GROUP = "extensions.agents.x-k8s.io";
type ExtensionPlural = "sandboxtemplates" | "sandboxwarmpools" | "sandboxclaims";

export function operator(connection: ClusterConnection) {
  const core = connection.kubeConfig.makeApiClient(CoreV1Api);
  const policy = connection.kubeConfig.makeApiClient(PolicyV1Api);
  const custom = connection.kubeConfig.makeApiClient(CustomObjectsApi);

  const setUnschedulable = (node: string, unschedulable: boolean) =>
    core.patchNode({ name: node, body: { spec: { unschedulable } } }, mergePatch);

  /** `kubectl evict`: "evicted", or "refused" with the API server's 429 message. */
  async function evict(pod: { namespace: string; name: string }): Promise<{ outcome: "evicted" } | { outcome: "refused"; message: string }> {
    try {
      await core.createNamespacedPodEviction({
        namespace: pod.namespace,
        name: pod.name,
        body: { apiVersion: "policy/v1", kind: "Eviction", metadata: { namespace: pod.namespace, name: pod.name } },
      });
      return { outcome: "evicted" };
    } catch (error) {
      if (!(error instanceof ApiException)) throw error;
      if (error.code === 429) return { outcome: "refused", message: (JSON.parse(String(error.body)) as { message: string }).message };
      // Gone already: what a drain wanted.
      if (error.code === 404) return { outcome: "evicted" };
      throw error;
    }
  }

  /** `kubectl get`: the object, or null when there is none. */
  async function get<T>(read: () => Promise<T>): Promise<T | null> {
    try {
      return await read();
    } catch (error) {
      if (error instanceof ApiException && error.code === 404) return null;
      throw error;
    }
  }

  return {
    getPod: (namespace: string, name: string): Promise<V1Pod | null> => get(() => core.readNamespacedPod({ namespace, name })),
    getClaim: (namespace: string, name: string): Promise<V1PersistentVolumeClaim | null> => get(() => core.readNamespacedPersistentVolumeClaim({ namespace, name })),
    getPersistentVolume: (name: string): Promise<V1PersistentVolume | null> => get(() => core.readPersistentVolume({ name })),
    getBudget: (namespace: string, name: string): Promise<V1PodDisruptionBudget | null> => get(() => policy.readNamespacedPodDisruptionBudget({ namespace, name })),
    deleteBudget: (namespace: string, name: string) => policy.deleteNamespacedPodDisruptionBudget({ namespace, name }),
    getSandbox: (namespace: string, name: string): Promise<KubernetesObject | null> =>
      get(() => custom.getNamespacedCustomObject({ group: "agents.x-k8s.io", version: "v1beta1", namespace, plural: "sandboxes", name }) as Promise<KubernetesObject>),
    cordon: (node: string) => setUnschedulable(node, true),
    uncordon: (node: string) => setUnschedulable(node, false),
    evict,
    deletePod: (pod: { namespace: string; name: string }) => core.deleteNamespacedPod(pod),
    deleteSandbox: (namespace: string, name: string) =>
      custom.deleteNamespacedCustomObject({ group: "agents.x-k8s.io", version: "v1beta1", namespace, plural: "sandboxes", name }),
    listSandboxes: async (namespace: string): Promise<KubernetesObject[]> =>
      ((await custom.listNamespacedCustomObject({ group: "agents.x-k8s.io", version: "v1beta1", namespace, plural: "sandboxes" })) as { items: KubernetesObject[] }).items,
    /** `kubectl create -f` of an agent-sandbox extension object (SandboxTemplate, SandboxWarmPool, SandboxClaim). */
    createExtension: (plural: ExtensionPlural, namespace: string, body: object): Promise<KubernetesObject> =>
      custom.createNamespacedCustomObject({ group: EXTENSIONS_GROUP, version: "v1beta1", namespace, plural, body }) as Promise<KubernetesObject>,
    getExtension: (plural: ExtensionPlural, namespace: string, name: string): Promise<KubernetesObject | null> =>
      get(() => custom.getNamespacedCustomObject({ group: EXTENSIONS_GROUP, version: "v1beta1", namespace, plural, name }) as Promise<KubernetesObject>),
    deleteExtension: (plural: ExtensionPlural, namespace: string, name: string) =>
      custom.deleteNamespacedCustomObject({ group: EXTENSIONS_GROUP, version: "v1beta1", namespace, plural, name }).catch((error: unknown) => {
        if (!(error instanceof ApiException && error.code === 404)) throw error;
      }),

    /**
     * What a kubelet under memory pressure writes to the pod it evicts (there is no kubelet on a
     * kwok node, so the operator plays it): Failed/Evicted, with the DisruptionTarget condition.
     */
    kubeletEvict: (pod: { namespace: string; name: string }) => {
      const message = "The node was low on resource: memory. Threshold quantity: 100Mi, available: 51200Ki. ";
      const now = new Date();
      return core.patchNamespacedPodStatus({
        ...pod,
        body: {
          status: {
            phase: "Failed",
            reason: "Evicted",
            message,
            conditions: [
              { type: "DisruptionTarget", status: "True", reason: "TerminationByKubelet", message, lastTransitionTime: now },
              { type: "Ready", status: "False", reason: "PodFailed", lastTransitionTime: now },
            ],
          },
        },
      }, setHeaderOptions("Content-Type", PatchStrategy.StrategicMergePatch));
    },

    /**
     * `kubectl drain --ignore-daemonsets --delete-emptydir-data --timeout=…`: cordon, then evict
     * every pod on the node, trying a refused eviction again every second until the timeout.
     */
    async drain(node: string, { timeoutSeconds = 30 } = {}): Promise<DrainOutcome> {
      await setUnschedulable(node, true);
      const { items } = await core.listPodForAllNamespaces({ fieldSelector: `spec.nodeName=${node}` });
      const pending = new Map(items.map((pod: V1Pod) => [`${pod.metadata!.namespace}/${pod.metadata!.name}`, { namespace: pod.metadata!.namespace!, name: pod.metadata!.name! }]));
      const evicted: string[] = [];
      const deadline = Date.now() + timeoutSeconds * 1000;
      while (pending.size > 0 && Date.now() < deadline) {
        for (const [key, pod] of pending) {
          if ((await evict(pod)).outcome === "evicted") {
            evicted.push(key);
            pending.delete(key);
          }
        }
        if (pending.size > 0) await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
      return { evicted, blocked: [...pending.keys()] };
    },
  };
}
