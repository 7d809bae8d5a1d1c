import type { Protection } from "../domain/protection.ts";
import type { Condition, SandboxStatus } from "../domain/sandbox-status.ts";
import { nodeIsCordoned } from "./node-state.ts";
import type { ObservedNode, ObservedPod } from "./observed.ts";

// Eviction protection as a person needs to see it: is the sandbox protected (its budget is in
// the cluster, not merely asked for), and is a drain being held up by it right now — the node
// cordoned while the protected pod is still there — with what to do about it. Pure.

export { protectionSchema, type Protection } from "../domain/protection.ts";

export interface ObservedBudget {
  metadata?: { name?: string };
  status?: { disruptionsAllowed?: number };
}

export function deriveProtection(input: { wanted: boolean; budget: ObservedBudget | null; pod: ObservedPod | null; node: ObservedNode | null }): Protection {
  const { wanted, budget, pod, node } = input;
  const budgetName = budget?.metadata?.name ?? null;
  if (!budget) {
    return {
      wanted, protected: false, budgetName, refusingEvictions: false, drainBlocked: false,
      message: wanted ? "Eviction protection is asked for, but its PodDisruptionBudget is not in the cluster: a drain will evict this sandbox" : null,
    };
  }
  const refusingEvictions = (budget.status?.disruptionsAllowed ?? 0) === 0;
  const podStillThere = pod !== null && !pod.metadata?.deletionTimestamp && pod.spec?.nodeName === node?.metadata?.name;
  const drainBlocked = refusingEvictions && podStillThere && node !== null && nodeIsCordoned(node);
  const nodeName = node?.metadata?.name ?? "";
  return {
    wanted, protected: true, budgetName, refusingEvictions, drainBlocked,
    message: drainBlocked
      ? `Node ${nodeName} is cordoned, most likely for a drain, and PodDisruptionBudget ${budgetName} (minAvailable 1) refuses this sandbox's eviction, so the drain waits. To let it go on: run maintenance on ${nodeName} from Berth (it checkpoints the sandbox, then relaxes the budget for this one eviction), or stop the sandbox (its claims are kept). To call the drain off: uncordon ${nodeName}.`
      : `Protected by PodDisruptionBudget ${budgetName}: a drain waits for this sandbox instead of evicting it`,
  };
}

/** The status with the protection in its details and an EvictionBlocked condition. */
export function withProtection(status: SandboxStatus, protection: Protection, previous: Condition[], now: Date): SandboxStatus {
  const fresh = protection.drainBlocked
    ? { type: "EvictionBlocked", status: "True" as const, reason: "DrainBlocked", message: protection.message ?? "" }
    : { type: "EvictionBlocked", status: "False" as const, reason: protection.protected ? "NotBlocked" : "Unprotected" };
  const kept = previous.find((one) => one.type === fresh.type);
  const lastTransitionTime = kept && kept.status === fresh.status && kept.reason === fresh.reason ? kept.lastTransitionTime : now.toISOString();
  return {
    ...status,
    conditions: [...status.conditions.filter((one) => one.type !== fresh.type), { ...fresh, lastTransitionTime }],
    details: { ...status.details, protection },
  };
}
