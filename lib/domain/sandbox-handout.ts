import { z } from "zod";
import { evictionProtectionAnnotation } from "./labels.ts";
import { LabelSelectorError, parseLabelSelector, type LabelSelector } from "./label-selector.ts";

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

interface HandedOutSandbox extends OwnedObject {
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
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

/**
 * Whether a Sandbox handed to a claim was made from a template that asks for eviction protection
 * (the mark Berth renders on the template's pod template, which agent-sandbox copies into the
 * Sandbox). A sandbox still waiting in its pool is not: a drain may take it, the pool makes another.
 */
export function protectionAskedAtHandout(sandbox: HandedOutSandbox | null | undefined, labelPrefix: string): boolean {
  if (!handoutOf(sandbox)?.claim) return false;
  const podTemplate = sandbox?.spec?.podTemplate as { metadata?: { annotations?: Record<string, string> } } | undefined;
  return podTemplate?.metadata?.annotations?.[evictionProtectionAnnotation(labelPrefix)] === "true";
}

/**
 * The labels the Sandbox's pods carry, from the selector agent-sandbox reports in its status
 * (`key=value[,key=value]`); null before it has a pod, or for a selector that is not plain
 * equality (never guessed at).
 */
export function podSelectorOf(sandbox: HandedOutSandbox | null | undefined): Record<string, string> | null {
  const text = sandbox?.status?.selector;
  if (typeof text !== "string" || text.trim() === "") return null;
  let requirements: LabelSelector;
  try {
    requirements = parseLabelSelector(text);
  } catch (error) {
    if (error instanceof LabelSelectorError) return null;
    throw error;
  }
  const equalities = requirements.flatMap((one) => (one.operator === "in" && one.values.length === 1 ? [[one.key, one.values[0]!] as const] : []));
  return equalities.length === requirements.length ? Object.fromEntries(equalities) : null;
}
