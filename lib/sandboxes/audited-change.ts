import type { Actor } from "../domain/audit.ts";
import type { Store } from "../store/index.ts";

// A change made for a person is recorded in the audit log once it went through, with what it
// did; the API's edge records one that failed, with the request it came with.

export interface NamespacedChange<T> {
  actor: Actor;
  action: string;
  targetKind: string;
  /** Absent for a cluster-scoped object: the target is its name alone. */
  namespace?: string;
  name: string;
  details?: Record<string, unknown>;
  /** What of the result goes into the entry's details beside `details`. */
  detailsOf?: (result: T) => Record<string, unknown>;
}

export async function auditedChange<T>(audit: Pick<Store["audit"], "recordChange">, change: NamespacedChange<T>, act: () => Promise<T>): Promise<T> {
  const result = await act();
  const { actor, action, targetKind, namespace, name, details = {}, detailsOf } = change;
  await audit.recordChange({ actor, action, targetKind, targetId: namespace === undefined ? name : `${namespace}/${name}`, outcome: "Succeeded", details: { ...details, ...detailsOf?.(result) } });
  return result;
}
