import { z } from "zod";

// Where a Sandbox of agent-sandbox's extensions stands: waiting in a warm pool, or handed to a
// SandboxClaim — from the pool, already started (a warm start), or made for the claim because no
// pool member was ready (a cold start). Read from the Sandbox's controller owner and the
// launch-type label the claim controller sets; a controller that sets no such label (releases
// before it) is read by the name: a cold start is named like its claim, a pool member is not. Pure.

export const LAUNCH_TYPE_LABEL = "agents.x-k8s.io/launch-type";

export const handoutSchema = z.object({
  /** The SandboxWarmPool holding it while it waits; null once handed out. */
  pool: z.string().nullable(),
  /** The SandboxClaim it was handed to; null while it waits. */
  claim: z.string().nullable(),
  launchType: z.enum(["warm", "cold"]).nullable(),
});
export type Handout = z.infer<typeof handoutSchema>;

interface OwnedObject {
  metadata?: { name?: string; labels?: Record<string, string>; ownerReferences?: { kind?: string; name?: string; controller?: boolean; apiVersion?: string }[] };
}

/** The Sandbox's place in a pool or with a claim; null for a Sandbox neither holds. */
export function handoutOf(sandbox: OwnedObject | null | undefined): Handout | null {
  const controller = sandbox?.metadata?.ownerReferences?.find((owner) => owner.controller && owner.apiVersion?.startsWith("extensions.agents.x-k8s.io/"));
  if (!controller?.name) return null;
  if (controller.kind === "SandboxWarmPool") return { pool: controller.name, claim: null, launchType: null };
  if (controller.kind !== "SandboxClaim") return null;
  const labelled = sandbox?.metadata?.labels?.[LAUNCH_TYPE_LABEL];
  if (labelled === "warm" || labelled === "cold") return { pool: null, claim: controller.name, launchType: labelled };
  // Labelled with something else (a newer release's word): not guessed.
  if (labelled !== undefined) return { pool: null, claim: controller.name, launchType: null };
  return { pool: null, claim: controller.name, launchType: sandbox?.metadata?.name === controller.name ? "cold" : "warm" };
}

/** What the timeline says when a Sandbox is handed to a claim. */
export function handoutMessage(handout: Handout, poolBefore: string | null): string {
  if (handout.launchType === "warm") {
    return `Handed to claim ${handout.claim} from warm pool ${poolBefore ?? "(its pool)"}: a warm start, the sandbox was already running`;
  }
  return `Started for claim ${handout.claim}: a cold start, no sandbox was ready in the template's warm pool`;
}
