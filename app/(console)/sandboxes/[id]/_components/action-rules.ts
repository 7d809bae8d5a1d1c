import type { SandboxPhase } from "@/lib/domain/sandbox-status.ts";

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

/** Whether the action is offered, and if not, why (shown beside the disabled button). */
export function availability(action: SandboxAction, sandbox: { phase: SandboxPhase; deletedAt: Date | null }): { enabled: true } | { enabled: false; why: string } {
  if (sandbox.deletedAt) return { enabled: false, why: "The sandbox is deleted" };
  const rule = RULES[action];
  return rule.phases.includes(sandbox.phase) ? { enabled: true } : { enabled: false, why: `${rule.otherwise} (it is ${sandbox.phase})` };
}
