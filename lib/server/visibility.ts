import { BERTH_RESOURCES, KUBERNETES_RESOURCES, type ResourceAttributes } from "../domain/access.ts";
import type { Person } from "../domain/person.ts";
import type { TimelineEvent } from "../domain/timeline.ts";
import type { Runtime } from "./runtime.ts";

// What a person may see of what Berth holds in memory and in its store, decided by Kubernetes:
// a person who may not list sandboxes (or claims) in a namespace sees nothing of it — not in a
// list, not in the event stream, not as a name on a node.

const LIST_SANDBOXES = { verb: "list", ...KUBERNETES_RESOURCES.sandboxes } as const satisfies Omit<ResourceAttributes, "namespace">;
const LIST_CLAIMS = { verb: "list", ...KUBERNETES_RESOURCES.persistentVolumeClaims } as const satisfies Omit<ResourceAttributes, "namespace">;
const LIST_TEMPLATES = { verb: "list", ...KUBERNETES_RESOURCES.sandboxTemplates } as const satisfies Omit<ResourceAttributes, "namespace">;

type Identity = Pick<Runtime, "identity">;

/** The namespaces among `namespaces` whose sandboxes the person may list. */
export function namespacesWithVisibleSandboxes(runtime: Identity, person: Person, namespaces: Iterable<string>): Promise<Set<string>> {
  return runtime.identity.decisions.namespacesAllowing(person, LIST_SANDBOXES, namespaces);
}

/** The namespaces among `namespaces` whose claims the person may list. */
export function namespacesWithVisibleClaims(runtime: Identity, person: Person, namespaces: Iterable<string>): Promise<Set<string>> {
  return runtime.identity.decisions.namespacesAllowing(person, LIST_CLAIMS, namespaces);
}

/** Of `items`, those in namespaces where the person may list sandbox templates. */
export async function visibleTemplateItems<Item extends { namespace: string }>(runtime: Identity, person: Person, items: Item[]): Promise<Item[]> {
  const visible = await runtime.identity.decisions.namespacesAllowing(person, LIST_TEMPLATES, items.map((item) => item.namespace));
  return items.filter((item) => visible.has(item.namespace));
}

/** Of `items`, those in namespaces where the person may list sandboxes. */
export async function visibleSandboxItems<Item extends { namespace: string }>(runtime: Identity, person: Person, items: Item[]): Promise<Item[]> {
  const visible = await namespacesWithVisibleSandboxes(runtime, person, items.map((item) => item.namespace));
  return items.filter((item) => visible.has(item.namespace));
}

/**
 * Which timeline events the person may see, one answer per event: a sandbox's events where they
 * may list sandboxes (in the namespace the sandbox was in, gone or not), a maintenance run's
 * where they may list maintenance runs. Asked for a whole replay page at a time, the answer
 * costs a few promises however long the page: 300 streams replaying 200-event pages would
 * otherwise make hundreds of thousands, each paid for again by the async context that Next.js
 * tracks on every promise.
 */
export function timelineEventVisibility(runtime: Identity & Pick<Runtime, "live" | "store">, person: Person): (events: TimelineEvent[]) => Promise<boolean[]> {
  // Sandboxes no longer live keep the namespace they had: looked up once per stream.
  const namespacesOfGone = new Map<string, string | null>();
  const namespaceOf = (sandboxId: string) => runtime.live.get(sandboxId)?.namespace ?? namespacesOfGone.get(sandboxId);
  return async (events) => {
    const unknown = [...new Set(events.flatMap((event) => (event.sandboxId !== null && namespaceOf(event.sandboxId) === undefined ? [event.sandboxId] : [])))];
    const found = await Promise.all(unknown.map((sandboxId) => runtime.store.sandboxes.getSandbox(sandboxId)));
    unknown.forEach((sandboxId, index) => namespacesOfGone.set(sandboxId, found[index]?.namespace ?? null));
    const namespaces = events.flatMap((event) => (event.sandboxId === null ? [] : [namespaceOf(event.sandboxId) ?? null])).filter((namespace) => namespace !== null);
    const [sandboxesVisibleIn, maintenanceVisible] = await Promise.all([
      namespacesWithVisibleSandboxes(runtime, person, namespaces),
      events.some((event) => event.sandboxId === null) ? runtime.identity.decisions.allows(person, { resource: { verb: "list", ...BERTH_RESOURCES.maintenanceRuns } }) : false,
    ]);
    return events.map((event) => {
      if (event.sandboxId === null) return maintenanceVisible;
      const namespace = namespaceOf(event.sandboxId);
      return namespace !== null && namespace !== undefined && sandboxesVisibleIn.has(namespace);
    });
  };
}
