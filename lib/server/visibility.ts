import { KUBERNETES_RESOURCES, type ResourceAttributes } from "../domain/access.ts";
import type { Person } from "../domain/person.ts";
import type { Runtime } from "./runtime.ts";

// What a person may see of what Berth holds in memory and in its store, decided by Kubernetes:
// a person who may not list sandboxes (or claims) in a namespace sees nothing of it — not in a
// list, not in the event stream, not as a name on a node.

const LIST_SANDBOXES = { verb: "list", ...KUBERNETES_RESOURCES.sandboxes } as const satisfies Omit<ResourceAttributes, "namespace">;
const LIST_CLAIMS = { verb: "list", ...KUBERNETES_RESOURCES.persistentVolumeClaims } as const satisfies Omit<ResourceAttributes, "namespace">;

type Identity = Pick<Runtime, "identity">;

/** The namespaces among `namespaces` whose sandboxes the person may list. */
export function namespacesWithVisibleSandboxes(runtime: Identity, person: Person, namespaces: Iterable<string>): Promise<Set<string>> {
  return runtime.identity.decisions.namespacesAllowing(person, LIST_SANDBOXES, namespaces);
}

/** The namespaces among `namespaces` whose claims the person may list. */
export function namespacesWithVisibleClaims(runtime: Identity, person: Person, namespaces: Iterable<string>): Promise<Set<string>> {
  return runtime.identity.decisions.namespacesAllowing(person, LIST_CLAIMS, namespaces);
}

/** Of `items`, those in namespaces where the person may list sandboxes. */
export async function visibleSandboxItems<Item extends { namespace: string }>(runtime: Identity, person: Person, items: Item[]): Promise<Item[]> {
  const visible = await namespacesWithVisibleSandboxes(runtime, person, items.map((item) => item.namespace));
  return items.filter((item) => visible.has(item.namespace));
}

/** Whether the person may see a sandbox of this namespace (the event stream asks per event; answers are cached). */
export function maySeeSandboxesIn(runtime: Identity, person: Person, namespace: string): Promise<boolean> {
  return runtime.identity.decisions.allows(person, { resource: { ...LIST_SANDBOXES, namespace } });
}
