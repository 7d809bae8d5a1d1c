import { berthLabelKeys } from "../domain/labels.ts";
import type { SandboxRecord } from "../domain/sandbox-record.ts";
import type { SandboxResources } from "../kube/sandbox-resources.ts";

// The claims Berth made for a sandbox carry its sandbox-id label; which of them go when the
// sandbox goes depends on why it goes.

export interface SweptClaims {
  removedClaims: string[];
  keptClaims: string[];
}

/**
 * `ownedForDeletion`: the sandbox is deleted — only claims whose ownership is `delete` go;
 * `retain` claims stay for the next sandbox (and `existing` ones never carry the label).
 * `allMadeForIt`: its create was interrupted — every claim that create made goes, because the
 * sandbox they were made for never existed as far as anyone was told.
 */
export async function sweepClaims(
  resources: Pick<SandboxResources, "listClaims" | "deleteClaim">,
  labelPrefix: string,
  record: Pick<SandboxRecord, "id" | "namespace">,
  which: "ownedForDeletion" | "allMadeForIt",
): Promise<SweptClaims> {
  const keys = berthLabelKeys(labelPrefix);
  const labelled = await resources.listClaims(record.namespace, `${keys.sandboxId}=${record.id}`);
  const swept: SweptClaims = { removedClaims: [], keptClaims: [] };
  for (const claim of labelled) {
    const name = claim.metadata!.name!;
    if (which === "allMadeForIt" || claim.metadata?.labels?.[keys.claimOwnership] === "delete") {
      await resources.deleteClaim(record.namespace, name);
      swept.removedClaims.push(name);
    } else {
      swept.keptClaims.push(name);
    }
  }
  return swept;
}

export function describeSweep({ removedClaims, keptClaims }: SweptClaims): string {
  return `claims removed: ${removedClaims.join(", ") || "none"}; kept: ${keptClaims.join(", ") || "none"}`;
}
