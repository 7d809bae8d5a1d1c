// The Kubernetes shapes Berth renders, with only the fields it sets. Written out rather than
// taken from @kubernetes/client-node so that this folder stays importable from the browser.

export interface ObjectMeta {
  name: string;
  namespace: string;
  labels: Record<string, string>;
  annotations?: Record<string, string>;
}

export type EnvVar = { name: string; value: string } | { name: string; valueFrom: { secretKeyRef: { name: string; key: string } } };

/** The Secret of a sandbox's secret values; `stringData` holds them only in what a create sends. */
export interface SecretManifest {
  apiVersion: "v1";
  kind: "Secret";
  metadata: ObjectMeta;
  type: "Opaque";
  stringData: Record<string, string>;
}

export interface ResourceList {
  cpu?: string;
  memory?: string;
}

export interface VolumeMount {
  name: string;
  mountPath: string;
  readOnly?: boolean;
  subPath?: string;
}

export interface Container {
  name: string;
  image: string;
  command?: string[];
  env?: EnvVar[];
  resources?: { requests?: ResourceList; limits?: ResourceList };
  securityContext: ContainerSecurityContext;
  volumeMounts: VolumeMount[];
}

export interface ContainerSecurityContext {
  allowPrivilegeEscalation: false;
  capabilities: { drop: ["ALL"] };
}

export interface PodSecurityContext {
  runAsNonRoot: true;
  runAsUser: number;
  runAsGroup: number;
  fsGroup: number;
  fsGroupChangePolicy: "OnRootMismatch";
  seccompProfile: { type: "RuntimeDefault" };
}

export type Volume =
  | { name: string; emptyDir: Record<string, never> }
  | { name: string; persistentVolumeClaim: { claimName: string; readOnly?: boolean } };

export interface PodSpec {
  automountServiceAccountToken: false;
  enableServiceLinks: false;
  securityContext: PodSecurityContext;
  terminationGracePeriodSeconds: number;
  initContainers: Container[];
  containers: Container[];
  volumes?: Volume[];
}

export interface PersistentVolumeClaimSpec {
  accessModes: string[];
  resources: { requests: { storage: string } };
  /** Absent: the cluster's default StorageClass. "": no class. */
  storageClassName?: string;
  /** What the new volume is filled from: a VolumeSnapshot restored, or a claim cloned. */
  dataSource?: { apiGroup?: string; kind: string; name: string };
}

export interface VolumeClaimTemplate {
  metadata: { name: string };
  spec: PersistentVolumeClaimSpec;
}

export interface SandboxManifest {
  apiVersion: string;
  kind: "Sandbox";
  metadata: ObjectMeta;
  spec: ({ operatingMode: "Running" } | { replicas: 1 }) & SandboxBlueprint;
}

/** The pod template and claim templates a Sandbox runs from (agent-sandbox's SandboxBlueprint). */
export interface SandboxBlueprint {
  podTemplate: { metadata: { labels: Record<string, string>; annotations?: Record<string, string> }; spec: PodSpec };
  volumeClaimTemplates?: VolumeClaimTemplate[];
}

export interface SandboxTemplateManifest {
  apiVersion: string;
  kind: "SandboxTemplate";
  metadata: ObjectMeta;
  /** Unmanaged: Berth's sandboxes have no NetworkPolicy of agent-sandbox's making, from a template or not. */
  spec: SandboxBlueprint & { networkPolicyManagement: "Unmanaged" };
}

export interface SandboxClaimManifest {
  apiVersion: string;
  kind: "SandboxClaim";
  metadata: ObjectMeta;
  spec: { warmPoolRef: { name: string } };
}

export interface SandboxWarmPoolManifest {
  apiVersion: string;
  kind: "SandboxWarmPool";
  metadata: ObjectMeta;
  spec: { replicas: number; sandboxTemplateRef: { name: string }; updateStrategy: { type: "OnReplenish" | "Recreate" } };
}

export interface PersistentVolumeClaimManifest {
  apiVersion: "v1";
  kind: "PersistentVolumeClaim";
  metadata: ObjectMeta;
  spec: PersistentVolumeClaimSpec;
}

export interface PodDisruptionBudgetManifest {
  apiVersion: "policy/v1";
  kind: "PodDisruptionBudget";
  metadata: ObjectMeta;
  spec: { minAvailable: number; selector: { matchLabels: Record<string, string> } };
}
