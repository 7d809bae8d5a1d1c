import { berthResourceDefinitions } from "../../render/berth-resource-definitions.ts";
import type { KubeObject } from "../objects.ts";
import { publishedDefinition, type PrinterColumn } from "./custom-resources.ts";
import { sandboxClaimConversion, sandboxTemplateConversion, sandboxWarmPoolConversion } from "./extensions-conversion.ts";
import type { ResourceRef } from "../status-error.ts";

// What the simulated API server serves: one entry per resource, with what discovery says about
// it and how the server treats it. Objects are stored in `storageVersion`; `convert` turns them
// into another served version and back.

export type Subresource = "status" | "scale" | "binding" | "eviction" | "exec" | "log" | "attach" | "portforward" | "token";

/** The authorization and authentication reviews: create-only, answered at once, never stored. */
export const REVIEWS = [
  { group: "authorization.k8s.io", resource: "subjectaccessreviews", kind: "SubjectAccessReview", namespaced: false },
  { group: "authorization.k8s.io", resource: "localsubjectaccessreviews", kind: "LocalSubjectAccessReview", namespaced: true },
  { group: "authorization.k8s.io", resource: "selfsubjectaccessreviews", kind: "SelfSubjectAccessReview", namespaced: false },
  { group: "authorization.k8s.io", resource: "selfsubjectrulesreviews", kind: "SelfSubjectRulesReview", namespaced: false },
  { group: "authentication.k8s.io", resource: "tokenreviews", kind: "TokenReview", namespaced: false },
  { group: "authentication.k8s.io", resource: "selfsubjectreviews", kind: "SelfSubjectReview", namespaced: false },
] as const;

export interface VersionConversion {
  /** Storage-version object → the object as `version` shows it. */
  fromStorage(object: KubeObject, version: string): KubeObject;
  /** An object written at `version` → storage version. */
  toStorage(object: KubeObject, version: string): KubeObject;
}

export interface ResourceDefinition extends ResourceRef {
  kind: string;
  singular: string;
  namespaced: boolean;
  versions: string[];
  storageVersion: string;
  shortNames?: string[];
  categories?: string[];
  subresources: Subresource[];
  /** Whether `PATCH` with application/strategic-merge-patch+json is allowed (built-in types only). */
  strategicMerge: boolean;
  /** Deleting waits for this many seconds of grace by default (pods on a node); 0 elsewhere. */
  convert?: VersionConversion;
  /** The verbs discovery lists, when not every one (reviews are create-only). */
  verbs?: string[];
  /** A custom resource's definition, as its project publishes it: printer columns (and schemas) come from it. */
  customResourceDefinition?: { spec: { versions: { name: string; additionalPrinterColumns?: PrinterColumn[] }[] } };
}

const ALL_VERBS = ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"];
export const resourceVerbs = (definition: ResourceDefinition) => definition.verbs ?? ALL_VERBS;

/** A custom resource as its published CustomResourceDefinition declares it (the scale subresource is not served). */
function published(group: string, plural: string, extra: Partial<ResourceDefinition> = {}): ResourceDefinition {
  const crd = publishedDefinition(group, plural);
  const served = crd.spec.versions.filter((version) => version.served);
  return {
    group,
    resource: plural,
    kind: crd.spec.names.kind,
    singular: crd.spec.names.singular,
    namespaced: crd.spec.scope === "Namespaced",
    versions: served.map((version) => version.name),
    storageVersion: crd.spec.versions.find((version) => version.storage)!.name,
    ...(crd.spec.names.shortNames ? { shortNames: crd.spec.names.shortNames } : {}),
    ...(crd.spec.names.categories ? { categories: crd.spec.names.categories } : {}),
    subresources: served.some((version) => version.subresources?.status) ? ["status"] : [],
    strategicMerge: false,
    customResourceDefinition: crd,
    ...extra,
  };
}

const core = (resource: string, kind: string, namespaced: boolean, extra: Partial<ResourceDefinition> = {}): ResourceDefinition => ({
  group: "",
  resource,
  kind,
  singular: kind.toLowerCase(),
  namespaced,
  versions: ["v1"],
  storageVersion: "v1",
  subresources: [],
  strategicMerge: true,
  ...extra,
});

/** The annotation agent-sandbox's conversion webhook keeps a v1alpha1 write in, for a lossless way back. */
export const V1ALPHA1_STATE_ANNOTATION = "api.agents.x-k8s.io/v1alpha1-sandbox-state";

const sandboxRecord = (value: unknown) => ({ ...(value as Record<string, unknown> | undefined) });

/**
 * agent-sandbox's Sandbox: v1beta1 says operatingMode, deprecated v1alpha1 says replicas, and the
 * conversion webhook (api/v1alpha1/sandbox_conversion.go, unchanged from v0.5.3 to v0.5.6) goes between them: v1alpha1
 * has no nodeName; its status.replicas is 0 when Suspended, else 1. A write in v1alpha1 leaves
 * the object it wrote in an annotation (seen in v1beta1) and a v1alpha1 read restores from it
 * spec.replicas (as long as the mode agrees) and status.replicas (as it was written: the
 * controller never writes it).
 */
const sandboxConversion: VersionConversion = {
  fromStorage(object, version) {
    if (version !== "v1alpha1") return object;
    const spec = sandboxRecord(object.spec);
    const mode = spec.operatingMode;
    delete spec.operatingMode;
    spec.replicas = mode === "Suspended" ? 0 : 1;
    const status = sandboxRecord(object.status);
    delete status.nodeName;
    let replicas = mode === "Suspended" ? 0 : 1;
    const annotations = { ...object.metadata.annotations };
    const state = annotations[V1ALPHA1_STATE_ANNOTATION];
    delete annotations[V1ALPHA1_STATE_ANNOTATION];
    if (state !== undefined) {
      const original = JSON.parse(state) as { spec?: { replicas?: number }; status?: { replicas?: number } };
      const wrote = original.spec?.replicas;
      if (mode === "Running") {
        if (wrote === undefined) delete spec.replicas;
        else spec.replicas = wrote !== 0 ? wrote : 1;
      }
      replicas = original.status?.replicas ?? 0;
    }
    // omitempty: a zero replicas is not written.
    if (replicas !== 0) status.replicas = replicas;
    else delete status.replicas;
    const metadata = { ...object.metadata };
    if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
    else delete metadata.annotations;
    return { ...object, apiVersion: `agents.x-k8s.io/${version}`, metadata, spec, status };
  },
  toStorage(object, version) {
    if (version !== "v1alpha1") return object;
    const spec = sandboxRecord(object.spec);
    // The v1alpha1 schema's default, applied to the request before it is converted.
    spec.replicas ??= 1;
    const written = { ...object, metadata: { ...object.metadata, annotations: { ...object.metadata?.annotations } }, spec: { ...spec } };
    delete written.metadata.annotations[V1ALPHA1_STATE_ANNOTATION];
    if (Object.keys(written.metadata.annotations).length === 0) delete (written.metadata as { annotations?: unknown }).annotations;
    const replicas = spec.replicas;
    delete spec.replicas;
    spec.operatingMode = replicas === 0 ? "Suspended" : "Running";
    const status = sandboxRecord(object.status);
    delete status.replicas;
    const metadata = { ...object.metadata, annotations: { ...object.metadata?.annotations, [V1ALPHA1_STATE_ANNOTATION]: JSON.stringify(written) } };
    return { ...object, apiVersion: "agents.x-k8s.io/v1beta1", metadata, spec, ...(object.status ? { status } : {}) };
  },
};

export const RESOURCES: ResourceDefinition[] = [
  core("namespaces", "Namespace", false, { shortNames: ["ns"], subresources: ["status"] }),
  core("nodes", "Node", false, { shortNames: ["no"], subresources: ["status"] }),
  core("pods", "Pod", true, {
    shortNames: ["po"],
    categories: ["all"],
    subresources: ["status", "binding", "eviction", "exec", "log", "attach", "portforward"],
  }),
  core("persistentvolumeclaims", "PersistentVolumeClaim", true, { shortNames: ["pvc"], subresources: ["status"] }),
  core("persistentvolumes", "PersistentVolume", false, { shortNames: ["pv"], subresources: ["status"] }),
  core("events", "Event", true, { shortNames: ["ev"] }),
  core("services", "Service", true, { shortNames: ["svc"], categories: ["all"], subresources: ["status"] }),
  core("serviceaccounts", "ServiceAccount", true, { shortNames: ["sa"], subresources: ["token"] }),
  core("secrets", "Secret", true, {}),
  core("configmaps", "ConfigMap", true, { shortNames: ["cm"] }),
  ...(["Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding"] as const).map((kind) => ({
    group: "rbac.authorization.k8s.io",
    resource: `${kind.toLowerCase()}s`,
    kind,
    singular: kind.toLowerCase(),
    namespaced: !kind.startsWith("Cluster"),
    versions: ["v1"],
    storageVersion: "v1",
    subresources: [],
    strategicMerge: true,
  })),
  // Reviews are asked, not stored: create answers them (lib/sim/access/review-apis.ts).
  ...REVIEWS.map(({ group, resource, kind, namespaced }) => ({
    group, resource, kind, singular: kind.toLowerCase(), namespaced, versions: ["v1"], storageVersion: "v1", subresources: [], strategicMerge: false, verbs: ["create"],
  })),
  ...(["Deployment", "ReplicaSet"] as const).map((kind): ResourceDefinition => ({
    group: "apps", resource: `${kind.toLowerCase()}s`, kind, singular: kind.toLowerCase(), namespaced: true, versions: ["v1"], storageVersion: "v1",
    shortNames: [kind === "Deployment" ? "deploy" : "rs"], categories: ["all"], subresources: ["status", "scale"], strategicMerge: true,
  })),
  {
    group: "apiextensions.k8s.io", resource: "customresourcedefinitions", kind: "CustomResourceDefinition", singular: "customresourcedefinition", namespaced: false,
    versions: ["v1"], storageVersion: "v1", shortNames: ["crd", "crds"], categories: ["api-extensions"], subresources: ["status"], strategicMerge: true,
  },
  {
    group: "storage.k8s.io", resource: "storageclasses", kind: "StorageClass", singular: "storageclass", namespaced: false,
    versions: ["v1"], storageVersion: "v1", shortNames: ["sc"], subresources: [], strategicMerge: true,
  },
  {
    group: "policy", resource: "poddisruptionbudgets", kind: "PodDisruptionBudget", singular: "poddisruptionbudget", namespaced: true,
    versions: ["v1"], storageVersion: "v1", shortNames: ["pdb"], subresources: ["status"], strategicMerge: true,
  },
  {
    // Stored and served, not enforced: the embedded cluster has no network plugin (as kind without one).
    group: "networking.k8s.io", resource: "networkpolicies", kind: "NetworkPolicy", singular: "networkpolicy", namespaced: true,
    versions: ["v1"], storageVersion: "v1", shortNames: ["netpol"], subresources: [], strategicMerge: true,
  },
  {
    group: "coordination.k8s.io", resource: "leases", kind: "Lease", singular: "lease", namespaced: true,
    versions: ["v1"], storageVersion: "v1", subresources: [], strategicMerge: true,
  },
  published("snapshot.storage.k8s.io", "volumesnapshots"),
  published("snapshot.storage.k8s.io", "volumesnapshotclasses"),
  published("agents.x-k8s.io", "sandboxes", { convert: sandboxConversion }),
  published("extensions.agents.x-k8s.io", "sandboxtemplates", { convert: sandboxTemplateConversion }),
  published("extensions.agents.x-k8s.io", "sandboxclaims", { convert: sandboxClaimConversion }),
  // Scaled as its definition says: spec.replicas, status.replicas, status.selector.
  published("extensions.agents.x-k8s.io", "sandboxwarmpools", { convert: sandboxWarmPoolConversion, subresources: ["status", "scale"] }),
  // Berth's own resources, defined as its chart defines them (charts/berth/crds): discovery
  // lists them, and every object is refused (strategies.ts).
  ...berthResourceDefinitions().map(({ spec }): ResourceDefinition => ({
    group: spec.group, resource: spec.names.plural, kind: spec.names.kind, singular: spec.names.singular, namespaced: false,
    versions: spec.versions.map((version) => version.name), storageVersion: spec.versions.find((version) => version.storage)!.name, subresources: [], strategicMerge: false,
    customResourceDefinition: { spec },
  })),
];

export const API_GROUPS = [...new Set(RESOURCES.map((definition) => definition.group).filter(Boolean))];

export function findResource(group: string, version: string, resource: string): ResourceDefinition | undefined {
  return RESOURCES.find((definition) => definition.group === group && definition.resource === resource && definition.versions.includes(version));
}

export function resourceFor(group: string, resource: string): ResourceDefinition {
  const found = RESOURCES.find((definition) => definition.group === group && definition.resource === resource);
  if (!found) throw new Error(`the simulated cluster does not serve ${resource}.${group}`);
  return found;
}

export const groupVersion = (group: string, version: string) => (group ? `${group}/${version}` : version);

/** The object as a client of `version` sees it. */
export function toVersion(definition: ResourceDefinition, object: KubeObject, version: string): KubeObject {
  const converted = definition.convert ? definition.convert.fromStorage(object, version) : object;
  return { ...converted, apiVersion: groupVersion(definition.group, version), kind: definition.kind };
}

/** An object as written by a client of `version`, in the storage version. */
export function fromVersion(definition: ResourceDefinition, object: KubeObject, version: string): KubeObject {
  const converted = definition.convert ? definition.convert.toStorage(object, version) : object;
  return { ...converted, apiVersion: groupVersion(definition.group, definition.storageVersion), kind: definition.kind };
}
