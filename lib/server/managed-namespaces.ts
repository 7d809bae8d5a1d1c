import type { ManagedNamespaces } from "../config/server-config.ts";
import { listNamespaceNames } from "../kube/namespace-resources.ts";
import type { NamespaceScope } from "../kube/namespaced-watch-cache.ts";
import type { Runtime } from "./runtime.ts";

// The namespaces Berth manages (BERTH_NAMESPACES, or those labelled `<prefix>/managed=true`):
// the tenants it offers to people. Read from the cluster at most every few seconds.

const FRESH_MS = 5_000;
const cache = new WeakMap<object, { names: Promise<string[]>; at: number }>();

export function managedNamespaces(runtime: Pick<Runtime, "config" | "cluster">, now = Date.now()): Promise<string[]> {
  const managed: ManagedNamespaces = runtime.config.namespaces;
  if (managed.kind === "listed") return Promise.resolve(managed.names);
  const known = cache.get(runtime);
  if (known && now - known.at < FRESH_MS) return known.names;
  const names = listNamespaceNames(runtime.cluster.connection, `${managed.label}=true`);
  cache.set(runtime, { names, at: now });
  names.catch(() => cache.delete(runtime));
  return names;
}

/** How a platform admin makes a namespace one Berth manages, for a refusal to say. */
export function howToManage(managed: ManagedNamespaces): string {
  return managed.kind === "listed"
    ? "a platform admin adds namespaces to BERTH_NAMESPACES (Helm: server.namespaces)"
    : `a platform admin adds a namespace by labelling it ${managed.label}=true`;
}

/** Where the status reconciler watches: the managed namespaces, however they are named. */
export function watchScope(managed: ManagedNamespaces): NamespaceScope {
  return managed.kind === "listed" ? { kind: "listed", names: managed.names } : { kind: "labelled", labelSelector: `${managed.label}=true` };
}

/** The namespaces a sandbox, template or claim may go in, and how to add one: what a refusal names. */
export async function namespaceChoices(runtime: Pick<Runtime, "config" | "cluster">): Promise<{ names: string[]; howToAdd: string }> {
  return { names: await managedNamespaces(runtime), howToAdd: howToManage(runtime.config.namespaces) };
}
