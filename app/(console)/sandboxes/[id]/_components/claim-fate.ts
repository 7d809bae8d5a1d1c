import { claimFate, type ClaimFate } from "@/lib/domain/workspace.ts";
import type { SandboxClaim } from "./sandbox-claims.ts";

// What deleting the sandbox does to each of its claims (lib/domain/workspace.ts, claimFate), as
// the delete dialog lists them.

/** The claims a delete removes and the ones it keeps, each in the order given. */
export function claimsByFate(claims: readonly SandboxClaim[]): Record<ClaimFate, SandboxClaim[]> {
  return { removed: claims.filter((claim) => claimFate(claim.ownership) === "removed"), kept: claims.filter((claim) => claimFate(claim.ownership) === "kept") };
}
