import { API_GROUPS, groupVersion, RESOURCES, resourceVerbs, type ResourceDefinition, type Subresource } from "./resources.ts";

// Discovery documents, so that client-node and a stock kubectl find every resource.

export const SERVER_VERSION = {
  major: "1",
  minor: "34",
  gitVersion: "v1.34.0-berth-sim",
  gitCommit: "0000000000000000000000000000000000000000",
  gitTreeState: "clean",
  buildDate: "2026-11-30T00:00:00Z",
  goVersion: "go1.26",
  compiler: "gc",
  platform: "linux/amd64",
};

/** Which group versions an API server serves: all it knows but those withdrawn (`group/version`). */
export type ServedVersion = (group: string, version: string) => boolean;
const everyVersion: ServedVersion = () => true;

function versionsOf(group: string, served: ServedVersion): string[] {
  const versions = RESOURCES.filter((definition) => definition.group === group).flatMap((definition) => definition.versions);
  return [...new Set(versions)].filter((version) => served(group, version));
}

export function apiVersions(serverAddress: string) {
  return { kind: "APIVersions", versions: ["v1"], serverAddressByClientCIDRs: [{ clientCIDR: "0.0.0.0/0", serverAddress }] };
}

export function apiGroup(group: string, served: ServedVersion = everyVersion) {
  const versions = versionsOf(group, served).map((version) => ({ groupVersion: groupVersion(group, version), version }));
  return { kind: "APIGroup", apiVersion: "v1", name: group, versions, preferredVersion: versions[0] };
}

export function apiGroupList(served: ServedVersion = everyVersion) {
  return { kind: "APIGroupList", apiVersion: "v1", groups: API_GROUPS.map((group) => apiGroup(group, served)).filter((group) => group.versions.length > 0) };
}

const SUBRESOURCE_ENTRIES: Record<Subresource, (definition: ResourceDefinition) => Record<string, unknown>> = {
  status: (definition) => ({ kind: definition.kind, verbs: ["get", "patch", "update"] }),
  scale: () => ({ group: "autoscaling", version: "v1", kind: "Scale", verbs: ["get", "patch", "update"] }),
  binding: () => ({ kind: "Binding", verbs: ["create"] }),
  eviction: () => ({ group: "policy", version: "v1", kind: "Eviction", verbs: ["create"] }),
  exec: () => ({ kind: "PodExecOptions", verbs: ["create", "get"] }),
  attach: () => ({ kind: "PodAttachOptions", verbs: ["create", "get"] }),
  portforward: () => ({ kind: "PodPortForwardOptions", verbs: ["create", "get"] }),
  log: () => ({ kind: "Pod", verbs: ["get"] }),
  token: () => ({ group: "authentication.k8s.io", version: "v1", kind: "TokenRequest", verbs: ["create"] }),
};

/** The APIResourceList of one group version, or null if nothing is served there. */
export function apiResourceList(group: string, version: string, served: ServedVersion = everyVersion) {
  if (!served(group, version)) return null;
  const definitions = RESOURCES.filter((definition) => definition.group === group && definition.versions.includes(version));
  if (definitions.length === 0) return null;
  const resources = definitions.flatMap((definition) => [
    {
      name: definition.resource,
      singularName: definition.singular,
      namespaced: definition.namespaced,
      kind: definition.kind,
      verbs: resourceVerbs(definition),
      ...(definition.shortNames ? { shortNames: definition.shortNames } : {}),
      ...(definition.categories ? { categories: definition.categories } : {}),
    },
    ...definition.subresources.map((subresource) => ({
      name: `${definition.resource}/${subresource}`,
      singularName: "",
      namespaced: definition.namespaced,
      ...SUBRESOURCE_ENTRIES[subresource](definition),
    })),
  ]);
  return { kind: "APIResourceList", apiVersion: "v1", groupVersion: groupVersion(group, version), resources };
}
