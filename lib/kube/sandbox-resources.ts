import { CoreV1Api, CustomObjectsApi, PolicyV1Api, type V1OwnerReference, type V1PersistentVolumeClaim, type V1Pod, type V1PodDisruptionBudget } from "@kubernetes/client-node";
import { EXTENSIONS_API_GROUP } from "../domain/agent-sandbox-install.ts";
import { SANDBOX_API_GROUP, type SandboxApiVersion } from "../domain/sandbox-api.ts";
import type { PersistentVolumeClaimManifest, PodDisruptionBudgetManifest, SandboxManifest, SecretManifest } from "../render/manifests.ts";
import type { ClusterConnection } from "./cluster-connection.ts";
import { kube, KubeApiError, nullIfNotFound } from "./kube-errors.ts";
import { mergePatch } from "./patch-options.ts";

// The Kubernetes objects behind one sandbox — the Sandbox, the claims Berth manages, the budget —
// as intent-named calls over client-node. Missing objects on delete count as done, as in
// controller-runtime: a repeated cleanup is harmless.

export interface StoredSandbox {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string; uid: string; resourceVersion: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
}

const plural = "sandboxes";
const MAX_CONFLICT_RETRIES = 5;

async function ignoreNotFound(call: () => Promise<unknown>): Promise<void> {
  await nullIfNotFound(call);
}

export function sandboxResources(connection: ClusterConnection, version: SandboxApiVersion) {
  const core = connection.kubeConfig.makeApiClient(CoreV1Api);
  const custom = connection.kubeConfig.makeApiClient(CustomObjectsApi);
  const policy = connection.kubeConfig.makeApiClient(PolicyV1Api);
  const dryRun = (yes: boolean | undefined) => (yes ? { dryRun: "All" } : {});

  return {
    async createSandbox(manifest: SandboxManifest, options: { dryRun?: boolean } = {}): Promise<StoredSandbox> {
      return (await kube(() =>
        custom.createNamespacedCustomObject({ group: SANDBOX_API_GROUP, version, namespace: manifest.metadata.namespace!, plural, body: manifest, ...dryRun(options.dryRun) }),
      )) as StoredSandbox;
    },

    readSandbox: (namespace: string, name: string) => nullIfNotFound(() => custom.getNamespacedCustomObject({ group: SANDBOX_API_GROUP, version, namespace, plural, name })) as Promise<StoredSandbox | null>,

    deleteSandbox: (namespace: string, name: string) =>
      ignoreNotFound(() => custom.deleteNamespacedCustomObject({ group: SANDBOX_API_GROUP, version, namespace, plural, name })),

    /** The SandboxClaim a sandbox was handed to (the extensions group moves in step with the Sandbox's). */
    deleteSandboxClaim: (namespace: string, name: string) =>
      ignoreNotFound(() => custom.deleteNamespacedCustomObject({ group: EXTENSIONS_API_GROUP, version, namespace, plural: "sandboxclaims", name })),

    readPod: (namespace: string, name: string): Promise<V1Pod | null> => nullIfNotFound(() => core.readNamespacedPod({ namespace, name })),

    /** With `uid`, only that pod: a replacement that took its name since is left alone (409 otherwise). */
    deletePod: (namespace: string, name: string, gracePeriodSeconds?: number, uid?: string) =>
      ignoreNotFound(() =>
        core.deleteNamespacedPod({
          namespace,
          name,
          ...(gracePeriodSeconds === undefined ? {} : { gracePeriodSeconds }),
          ...(uid ? { body: { preconditions: { uid } } } : {}),
        }),
      ),

    readClaim: (namespace: string, name: string): Promise<V1PersistentVolumeClaim | null> => nullIfNotFound(() => core.readNamespacedPersistentVolumeClaim({ namespace, name })),

    createClaim: (manifest: PersistentVolumeClaimManifest, options: { dryRun?: boolean } = {}) =>
      kube(() => core.createNamespacedPersistentVolumeClaim({ namespace: manifest.metadata.namespace!, body: manifest, ...dryRun(options.dryRun) })),

    deleteClaim: (namespace: string, name: string) => ignoreNotFound(() => core.deleteNamespacedPersistentVolumeClaim({ namespace, name })),

    /** Sets these labels on the claim (a merge: others stay as they are; null removes one). */
    labelClaim: (namespace: string, name: string, labels: Record<string, string | null>) =>
      kube(() => core.patchNamespacedPersistentVolumeClaim({ namespace, name, body: { metadata: { labels } } }, mergePatch)),

    listClaims: async (namespace: string, labelSelector: string): Promise<V1PersistentVolumeClaim[]> =>
      (await kube(() => core.listNamespacedPersistentVolumeClaim({ namespace, labelSelector }))).items,

    /** Suspends or resumes: `operatingMode` in v1beta1, `replicas` in the deprecated v1alpha1. */
    async setRunning(namespace: string, name: string, running: boolean): Promise<StoredSandbox> {
      const spec = version === "v1alpha1" ? { replicas: running ? 1 : 0 } : { operatingMode: running ? "Running" : "Suspended" };
      return (await kube(() => custom.patchNamespacedCustomObject({ group: SANDBOX_API_GROUP, version, namespace, plural, name, body: { spec } }, mergePatch))) as StoredSandbox;
    },

    /**
     * Makes the claim a dependent of the Sandbox (not controlled, not blocking), so the garbage
     * collector removes it with the Sandbox even if Berth never sees the deletion. Each patch
     * carries the resourceVersion it was computed from; when the claim changed meanwhile (the
     * binder just bound it, say) the claim is read again and the patch retried, as
     * client-go's RetryOnConflict does.
     */
    async addClaimOwner(namespace: string, name: string, owner: StoredSandbox): Promise<void> {
      const reference: V1OwnerReference = {
        apiVersion: owner.apiVersion,
        kind: owner.kind,
        name: owner.metadata.name,
        uid: owner.metadata.uid,
        controller: false,
        blockOwnerDeletion: false,
      };
      for (let attempt = 1; ; attempt++) {
        const claim = await kube(() => core.readNamespacedPersistentVolumeClaim({ namespace, name }));
        const references = [...(claim.metadata?.ownerReferences ?? []).filter((one) => one.uid !== owner.metadata.uid), reference];
        try {
          await kube(() =>
            core.patchNamespacedPersistentVolumeClaim(
              { namespace, name, body: { metadata: { resourceVersion: claim.metadata!.resourceVersion, ownerReferences: references } } },
              mergePatch,
            ),
          );
          return;
        } catch (error) {
          if (!(error instanceof KubeApiError && error.conflict) || attempt >= MAX_CONFLICT_RETRIES) throw error;
        }
      }
    },

    /** The sandbox's Secret of secret values; its answer (which holds them) is not kept. */
    async createSecret(manifest: SecretManifest, options: { dryRun?: boolean } = {}): Promise<void> {
      await kube(() => core.createNamespacedSecret({ namespace: manifest.metadata.namespace!, body: manifest, ...dryRun(options.dryRun) }));
    },

    /** Makes the Secret a dependent of its Sandbox, so that it is garbage-collected with it. */
    async setSecretOwner(namespace: string, name: string, owner: StoredSandbox): Promise<void> {
      const reference: V1OwnerReference = { apiVersion: owner.apiVersion, kind: owner.kind, name: owner.metadata.name, uid: owner.metadata.uid, controller: false, blockOwnerDeletion: false };
      await kube(() => core.patchNamespacedSecret({ namespace, name, body: { metadata: { ownerReferences: [reference] } } }, mergePatch));
    },

    deleteSecret: (namespace: string, name: string) => ignoreNotFound(() => core.deleteNamespacedSecret({ namespace, name })),

    createBudget: (manifest: PodDisruptionBudgetManifest, options: { dryRun?: boolean } = {}) =>
      kube(() => policy.createNamespacedPodDisruptionBudget({ namespace: manifest.metadata.namespace!, body: manifest, ...dryRun(options.dryRun) })),

    readBudget: (namespace: string, name: string): Promise<V1PodDisruptionBudget | null> => nullIfNotFound(() => policy.readNamespacedPodDisruptionBudget({ namespace, name })),

    /** Maintenance relaxes a budget to 0 for its own eviction and puts it back to 1 after. */
    setBudgetMinAvailable: (namespace: string, name: string, minAvailable: number) =>
      kube(() => policy.patchNamespacedPodDisruptionBudget({ namespace, name, body: { spec: { minAvailable } } }, mergePatch)),

    deleteBudget: (namespace: string, name: string) => ignoreNotFound(() => policy.deleteNamespacedPodDisruptionBudget({ namespace, name })),
  };
}

export type SandboxResources = ReturnType<typeof sandboxResources>;
