import type { KubeObject } from "../objects.ts";
import type { ObjectStore } from "../store/object-store.ts";
import { RESOURCES, type ResourceDefinition } from "./resources.ts";

// The CustomResourceDefinition objects of the custom resources the embedded cluster serves, as
// `kubectl get crds` and a controller checking its CRDs are installed find them: the published
// definitions (and Berth's own), with the status the API server gives an established definition.
// The set is fixed: the server is built with its custom resources, so a definition cannot be
// added, renamed or removed at run time — only its schema and columns may be updated in place.

export const CRD_RESOURCE = { group: "apiextensions.k8s.io", resource: "customresourcedefinitions" } as const;

interface DefinitionSpec {
  group: string;
  scope: string;
  names: { plural: string; singular: string; kind: string; listKind: string; shortNames?: string[]; categories?: string[] };
  versions: { name: string; served: boolean; storage: boolean }[];
}

/** The definition object of a custom resource, established, its stored versions the storage one. */
export function definitionObject(definition: ResourceDefinition, at: string): KubeObject {
  const crd = definition.customResourceDefinition as { metadata?: { annotations?: Record<string, string> }; spec: DefinitionSpec };
  const { names } = crd.spec;
  const condition = (type: string, reason: string, message: string) => ({ type, status: "True", lastTransitionTime: at, reason, message });
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${definition.resource}.${definition.group}`, ...(crd.metadata?.annotations ? { annotations: crd.metadata.annotations } : {}) },
    spec: crd.spec,
    status: {
      acceptedNames: { plural: names.plural, singular: names.singular, kind: names.kind, listKind: names.listKind, ...(names.shortNames ? { shortNames: names.shortNames } : {}), ...(names.categories ? { categories: names.categories } : {}) },
      conditions: [condition("NamesAccepted", "NoConflicts", "no conflicts found"), condition("Established", "InitialNamesAccepted", "the initial names have been accepted")],
      storedVersions: [definition.storageVersion],
    },
  };
}

/** What must not change in a served definition: the resource it names and the versions it serves and stores. */
export function servedShape(spec: unknown): string {
  const { group, scope, names, versions } = (spec ?? {}) as Partial<DefinitionSpec>;
  return JSON.stringify({ group, scope, plural: names?.plural, kind: names?.kind, versions: (versions ?? []).map(({ name, served, storage }) => ({ name, served, storage })) });
}

/**
 * Puts the definition of every served custom resource in the store, where one is missing (a new
 * cluster, or one restored from a data directory made before it served them).
 */
export function ensureServedDefinitions(store: ObjectStore, at: Date): void {
  const timestamp = at.toISOString().replace(/\.\d{3}Z$/, "Z");
  for (const definition of RESOURCES) {
    if (!definition.customResourceDefinition) continue;
    const object = definitionObject(definition, timestamp);
    if (!store.peek(CRD_RESOURCE, undefined, object.metadata.name!)) store.create(CRD_RESOURCE, object);
  }
}
