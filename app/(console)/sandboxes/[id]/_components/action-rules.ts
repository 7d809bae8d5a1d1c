import type { SandboxPhase } from "@/lib/domain/sandbox-status.ts";
import type { NamespaceCapability } from "@/lib/domain/who-am-i.ts";
import type { Permission } from "@/app/(console)/_components/permissions.ts";

// Which lifecycle actions make sense in which phase. The server has the last word (it answers
// 409 when the cluster disagrees); this keeps buttons that cannot work from being offered.

export const SANDBOX_ACTIONS = ["stop", "start", "recover", "checkpoint", "delete"] as const;
export type SandboxAction = (typeof SANDBOX_ACTIONS)[number];

const RULES: Record<SandboxAction, { phases: readonly SandboxPhase[]; otherwise: string }> = {
  stop: { phases: ["Pending", "Provisioning", "Ready", "Disrupted", "Recovering", "Starting", "Error"], otherwise: "Only a sandbox that runs or is on its way to running can be stopped" },
  start: { phases: ["Stopping", "Stopped"], otherwise: "Only a stopped sandbox can be started" },
  recover: { phases: ["Disrupted", "Recovering", "Error"], otherwise: "Recover replaces a failed or failing pod: there is none now" },
  checkpoint: { phases: ["Ready"], otherwise: "A checkpoint needs a Ready sandbox" },
  delete: { phases: ["Pending", "Provisioning", "Ready", "Checkpointing", "Disrupted", "Recovering", "Stopping", "Stopped", "Starting", "Error"], otherwise: "The sandbox is already being deleted" },
};

/** What Kubernetes must let the person do for each action (the API asks the same). */
export const ACTION_CAPABILITY: Record<SandboxAction, NamespaceCapability> = {
  stop: "changeSandboxes",
  start: "changeSandboxes",
  recover: "recoverPods",
  checkpoint: "execInPods",
  delete: "deleteSandboxes",
};

/**
 * Whether the action is offered, and if not, why (shown beside the disabled button): first
 * whether Kubernetes lets the person, then whether the phase allows it.
 */
export function availability(action: SandboxAction, sandbox: { phase: SandboxPhase; deletedAt: Date | null }, permission: Permission = { allowed: true }): { enabled: true } | { enabled: false; why: string } {
  if (!permission.allowed) return { enabled: false, why: permission.reason };
  if (sandbox.deletedAt) return { enabled: false, why: "The sandbox is deleted" };
  const rule = RULES[action];
  return rule.phases.includes(sandbox.phase) ? { enabled: true } : { enabled: false, why: `${rule.otherwise} (it is ${sandbox.phase})` };
}
