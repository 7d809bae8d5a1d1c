import { z } from "zod";
import { BERTH_RESOURCES, KUBERNETES_RESOURCES, type ResourceAttributes } from "./access.ts";
import { personSchema, signInMethodSchema } from "./person.ts";

// What the console shows of the signed-in person: who they are, and what Kubernetes lets them do
// through Berth, so that an action they may not take is shown disabled with the reason instead of
// failing when they try. Decided by Kubernetes (SubjectAccessReview), never guessed.

/** Things a person may do in a namespace, each the question Kubernetes is asked. */
export const NAMESPACE_CAPABILITIES = {
  listSandboxes: { verb: "list", ...KUBERNETES_RESOURCES.sandboxes },
  createSandboxes: { verb: "create", ...KUBERNETES_RESOURCES.sandboxes },
  changeSandboxes: { verb: "patch", ...KUBERNETES_RESOURCES.sandboxes },
  deleteSandboxes: { verb: "delete", ...KUBERNETES_RESOURCES.sandboxes },
  recoverPods: { verb: "delete", ...KUBERNETES_RESOURCES.pods },
  execInPods: { verb: "create", ...KUBERNETES_RESOURCES.pods, subresource: "exec" },
  listClaims: { verb: "list", ...KUBERNETES_RESOURCES.persistentVolumeClaims },
  createClaims: { verb: "create", ...KUBERNETES_RESOURCES.persistentVolumeClaims },
  changeClaims: { verb: "patch", ...KUBERNETES_RESOURCES.persistentVolumeClaims },
  deleteClaims: { verb: "delete", ...KUBERNETES_RESOURCES.persistentVolumeClaims },
  takeSnapshots: { verb: "create", ...KUBERNETES_RESOURCES.volumeSnapshots },
  deleteSnapshots: { verb: "delete", ...KUBERNETES_RESOURCES.volumeSnapshots },
  createTemplates: { verb: "create", ...KUBERNETES_RESOURCES.sandboxTemplates },
  changeTemplates: { verb: "update", ...KUBERNETES_RESOURCES.sandboxTemplates },
  deleteTemplates: { verb: "delete", ...KUBERNETES_RESOURCES.sandboxTemplates },
  claimSandboxes: { verb: "create", ...KUBERNETES_RESOURCES.sandboxClaims },
} as const satisfies Record<string, Omit<ResourceAttributes, "namespace" | "name">>;
export type NamespaceCapability = keyof typeof NAMESPACE_CAPABILITIES;
export const NAMESPACE_CAPABILITY_NAMES = Object.keys(NAMESPACE_CAPABILITIES) as NamespaceCapability[];

/** Things a person may do across the cluster. */
export const CLUSTER_CAPABILITIES = {
  listNodes: { verb: "list", ...KUBERNETES_RESOURCES.nodes },
  listStorageClasses: { verb: "list", ...KUBERNETES_RESOURCES.storageClasses },
  changeVolumes: { verb: "patch", ...KUBERNETES_RESOURCES.persistentVolumes },
  runMaintenance: { verb: "create", ...BERTH_RESOURCES.maintenanceRuns },
  readMaintenance: { verb: "list", ...BERTH_RESOURCES.maintenanceRuns },
  cancelMaintenance: { verb: "update", ...BERTH_RESOURCES.maintenanceRuns },
  readSettings: { verb: "get", ...BERTH_RESOURCES.settings },
  changeSettings: { verb: "update", ...BERTH_RESOURCES.settings },
  readAudit: { verb: "list", ...BERTH_RESOURCES.auditLogs },
  useSimulator: { verb: "create", ...BERTH_RESOURCES.simulator },
} as const satisfies Record<string, Omit<ResourceAttributes, "namespace" | "name">>;
export type ClusterCapability = keyof typeof CLUSTER_CAPABILITIES;
export const CLUSTER_CAPABILITY_NAMES = Object.keys(CLUSTER_CAPABILITIES) as ClusterCapability[];

export const whoAmISchema = z.object({
  person: personSchema,
  signedInWith: signInMethodSchema,
  /** The namespaces Berth manages, each with what the person may do there. */
  namespaces: z.array(z.object({ namespace: z.string(), may: z.array(z.enum(NAMESPACE_CAPABILITY_NAMES as [NamespaceCapability, ...NamespaceCapability[]])) })),
  cluster: z.array(z.enum(CLUSTER_CAPABILITY_NAMES as [ClusterCapability, ...ClusterCapability[]])),
  /** The Berth role that best describes the person, for the header: the widest one whose permissions they hold. */
  role: z.string().nullable(),
});
export type WhoAmI = z.infer<typeof whoAmISchema>;
