import { allPages } from "../client/berth-client.ts";
import type { MaintenanceRun } from "../domain/maintenance.ts";
import type { SandboxRecord } from "../domain/sandbox-record.ts";
import { NotFoundError, UsageError } from "./cli-errors.ts";
import type { Printable } from "./printers.ts";
import { MAINTENANCE_RUNS, NODES, SANDBOXES, STORAGE_CLASSES, VOLUMES } from "./resource-kinds.ts";
import type { Session } from "./session.ts";

// What `berth get` can list, by every name a person may type for it, and how each is fetched.

export interface Listing<Item> {
  /** The plural first, as `berth get` and completions offer it. */
  names: string[];
  printable: Printable<Item>;
  namespaced: boolean;
  /** Whether `-l` can select among them by their labels. */
  selectable?: true;
  /** Every item, in `namespace` or (undefined) every namespace the person may see; with a label selector, those it picks. */
  list(session: Session, namespace: string | undefined, labelSelector?: string): Promise<Item[]>;
}

const page = { limit: 500 };

const sandboxes: Listing<SandboxRecord> = {
  names: ["sandboxes", "sandbox", "sb"],
  printable: SANDBOXES,
  namespaced: true,
  selectable: true,
  list: (session, namespace, labelSelector) =>
    allPages((cursor) => session.client.listSandboxes({ query: { ...page, ...(cursor ? { cursor } : {}), ...(namespace ? { namespace } : {}), ...(labelSelector ? { labelSelector } : {}) } })),
};

export const LISTINGS = [
  sandboxes,
  {
    names: ["volumes", "volume", "vol", "pvc"],
    printable: VOLUMES,
    namespaced: true,
    selectable: true,
    list: (session, namespace, labelSelector) =>
      allPages((cursor) => session.client.listVolumes({ query: { ...page, ...(cursor ? { cursor } : {}), ...(namespace ? { namespace } : {}), ...(labelSelector ? { labelSelector } : {}) } })),
  },
  {
    names: ["nodes", "node", "no"],
    printable: NODES,
    namespaced: false,
    selectable: true,
    list: (session, _namespace, labelSelector) =>
      allPages((cursor) => session.client.listNodes({ query: { ...page, ...(cursor ? { cursor } : {}), ...(labelSelector ? { labelSelector } : {}) } })),
  },
  {
    names: ["storageclasses", "storageclass", "sc"],
    printable: STORAGE_CLASSES,
    namespaced: false,
    list: async (session) => (await session.client.listStorageClasses({})).items,
  },
  {
    names: ["maintenance", "maintenances", "mr"],
    printable: MAINTENANCE_RUNS,
    namespaced: false,
    list: async (session): Promise<MaintenanceRun[]> => {
      const nodes = await allPages((cursor) => session.client.listNodes({ query: { ...page, ...(cursor ? { cursor } : {}) } }));
      const runs = await Promise.all(nodes.map(async (node) => (await session.client.listNodeMaintenance({ params: { name: node.name } })).items));
      return runs.flat().sort((a, b) => b.startedAt.getTime() - a.startedAt.getTime());
    },
  },
] as Listing<unknown>[];

export const RESOURCE_NAMES = LISTINGS.map((listing) => listing.names[0]!);
export const SELECTABLE_NAMES = LISTINGS.filter((listing) => listing.selectable).map((listing) => listing.names[0]!);

export function listingFor(typed: string): Listing<unknown> {
  const found = LISTINGS.find((listing) => listing.names.includes(typed.toLowerCase()));
  if (!found) throw new UsageError(`berth does not know the resource type "${typed}": use one of ${RESOURCE_NAMES.join(", ")}`);
  return found;
}

/**
 * The sandbox a person names: in `namespace`, or — with none given — the only one of that name
 * among those they may see.
 */
export async function findSandbox(session: Session, name: string, namespace: string | undefined): Promise<SandboxRecord> {
  const named = (await sandboxes.list(session, namespace)).filter((sandbox) => sandbox.name === name);
  if (named.length === 0) throw new NotFoundError(`sandbox "${name}" not found${namespace ? ` in namespace ${namespace}` : " in any namespace you may see"}`);
  if (named.length > 1) {
    throw new UsageError(`there are sandboxes named "${name}" in ${named.map((one) => one.namespace).join(", ")}: say which with -n NAMESPACE`);
  }
  return named[0]!;
}
