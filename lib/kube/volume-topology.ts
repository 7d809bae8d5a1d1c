import type { V1PersistentVolume } from "@kubernetes/client-node";

// Where a PersistentVolume's data lives, read from the volume itself. Pure.

const HOSTNAME = "kubernetes.io/hostname";

/** The one node a node-local volume is tied to by its required node affinity; null when it can travel. */
export function pinnedNodeOf(volume: V1PersistentVolume | undefined): string | null {
  for (const term of volume?.spec?.nodeAffinity?.required?.nodeSelectorTerms ?? []) {
    const hostname = term.matchExpressions?.find((expression) => expression.key === HOSTNAME && expression.operator === "In");
    if (hostname?.values?.length === 1) return hostname.values[0]!;
  }
  return null;
}
