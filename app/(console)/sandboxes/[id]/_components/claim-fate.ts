import type { ClaimOwnership } from "@/lib/domain/workspace.ts";
import type { SandboxClaim } from "./sandbox-claims.ts";

// What deleting the sandbox does to each of its claims, by ownership: `template` claims go with
// the Sandbox (garbage collection), `delete` claims are swept by Berth; `retain` claims stay for
// the next sandbox and `existing` ones were never Berth's to remove.

export type ClaimFate = "removed" | "kept";

export function claimFate(ownership: ClaimOwnership): ClaimFate {
  return ownership === "template" || ownership === "delete" ? "removed" : "kept";
}

/** The claims a delete removes and the ones it keeps, each in the order given. */
export function claimsByFate(claims: readonly SandboxClaim[]): Record<ClaimFate, SandboxClaim[]> {
  return { removed: claims.filter((claim) => claimFate(claim.ownership) === "removed"), kept: claims.filter((claim) => claimFate(claim.ownership) === "kept") };
}
