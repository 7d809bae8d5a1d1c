import type { MaintenanceRunState, SandboxProgress } from "@/lib/domain/maintenance.ts";
import type { DrainOutcome, MaintenancePreview } from "@/lib/domain/maintenance-preview.ts";
import type { Tone } from "@/app/components/tone-badge.tsx";

// What the maintenance view says: the preview's summary in the confirmation, each sandbox's step
// in plain words with what happens next, and each run outcome with what the operator can do.
// Pure, so the words are tested without a browser.

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

const SANDBOX_OUTCOMES: Partial<Record<DrainOutcome, (n: number, node: string) => string>> = {
  moves: (n) => `${count(n, "sandbox moves", "sandboxes move")} to another node, workspace and all`,
  waitsForNode: (n, node) => `${count(n, "sandbox waits", "sandboxes wait")} for ${node}: the volume is pinned there, so it comes back (files kept) when the node is uncordoned`,
  losesWorkspace: (n) => `${count(n, "sandbox moves", "sandboxes move")} but loses the ephemeral workspace`,
  cannotMove: (n) => `${count(n, "sandbox cannot", "sandboxes cannot")} move: no other node can take it; the replacement stays Pending`,
};

/** The confirmation's lines: what starting maintenance will do, from the preview the person saw. */
export function previewSummary(preview: MaintenancePreview): string[] {
  const sandboxes = preview.pods.filter((pod) => pod.sandbox);
  const others = preview.pods.filter((pod) => !pod.sandbox);
  const lines = [`${preview.node} is cordoned first: nothing new is scheduled on it.`];
  if (sandboxes.length === 0) lines.push("No sandbox runs on it.");
  else lines.push(`${count(sandboxes.length, "sandbox is", "sandboxes are")} checkpointed, then evicted a few at a time; a failed checkpoint follows the sandbox's checkpointFailurePolicy (Block keeps it here).`);
  for (const [outcome, say] of Object.entries(SANDBOX_OUTCOMES) as [DrainOutcome, (n: number, node: string) => string][]) {
    const n = sandboxes.filter((pod) => pod.outcome === outcome).length;
    if (n > 0) lines.push(`${say(n, preview.node)}.`);
  }
  const guarded = sandboxes.filter((pod) => pod.checkpointedFirst).length;
  if (guarded > 0) lines.push(`${count(guarded, "sandbox is", "sandboxes are")} protected by a PodDisruptionBudget: it is checkpointed first, and its budget is relaxed only for its own eviction and restored once its replacement is Ready.`);
  const evicted = others.filter((pod) => pod.outcome === "evicted").length;
  if (evicted > 0) lines.push(`${count(evicted, "other pod is", "other pods are")} evicted as kubectl drain would.`);
  const left = others.length - evicted;
  if (left > 0) lines.push(`${count(left, "other pod is", "other pods are")} left alone or refused, as the preview says.`);
  return lines;
}

export const STEP_LABELS: Record<SandboxProgress["step"], string> = {
  Pending: "Waiting its turn",
  Checkpointing: "Checkpointing",
  Checkpointed: "Checkpointed",
  WaitingForOperator: "Blocked",
  Evicting: "Evicting",
  Evicted: "Evicted, replacement pending",
  Replaced: "Recovered",
  WaitingForNode: "Waiting for this node",
  Left: "Had left the node",
  Failed: "Failed",
};

export const STEP_TONES: Record<SandboxProgress["step"], Tone> = {
  Pending: "neutral",
  Checkpointing: "progress",
  Checkpointed: "progress",
  WaitingForOperator: "danger",
  Evicting: "progress",
  Evicted: "progress",
  Replaced: "ok",
  WaitingForNode: "neutral",
  Left: "neutral",
  Failed: "danger",
};

/** What happens next to a sandbox stuck at this step, and what the operator can do; null when it needs nothing. */
export function nextForStep(entry: Pick<SandboxProgress, "step" | "message">, node: string): string | null {
  switch (entry.step) {
    case "WaitingForOperator":
      return `Nothing happens to it until you act: it keeps running on ${node} and was not evicted. Fix its checkpoint hook (or checkpoint it from its page), then start maintenance again — or stop it (its claims are kept).`;
    case "WaitingForNode":
      return `Nothing to do until the work on ${node} is done: uncordon the node and it comes back with its files.`;
    case "Failed":
      return /refused/i.test(entry.message)
        ? `A PodDisruptionBudget kept refusing its eviction, so the sandbox is protected and still runs on ${node}. Find the budget that covers it (kubectl get pdb -n <namespace>), relax it or wait for it to allow the eviction, then start maintenance again.`
        : "Open the sandbox to see why (its status and timeline), then start maintenance again.";
    default:
      return null;
  }
}

export const RUN_TONES: Record<MaintenanceRunState, Tone> = {
  Running: "progress",
  Blocked: "danger",
  Succeeded: "ok",
  Failed: "danger",
  Cancelled: "neutral",
  Interrupted: "danger",
};

/** A run taken up again after the console running it stopped (or stopped leading): said, so that a pause in its steps is explained. */
export function resumedNote(attempts: number, runBy: string | null): string {
  return `resumed ${attempts - 1 === 1 ? "once" : `${attempts - 1} times`} after the console running it stopped${runBy ? `; now run by ${runBy}` : ""}`;
}

/** What the operator can do after a run that ended this way. */
export function nextForRun(state: MaintenanceRunState, node: string): string {
  switch (state) {
    case "Running":
      return `Each sandbox's step updates here as it happens. Cancel stops the run after its current step; budgets are restored and ${node} stays cordoned.`;
    case "Succeeded":
      return `${node} is cordoned and has no sandboxes left. Do the work on it, then uncordon it (kubectl uncordon ${node}).`;
    case "Blocked":
      return `${node} stays cordoned. Do what each blocked row says, then start maintenance again to move the rest.`;
    case "Failed":
      return `${node} stays cordoned. See the failed rows for why, fix what they say, then start maintenance again.`;
    case "Cancelled":
      return `Stopped after the step it was on: budgets are restored, ${node} stays cordoned. Start maintenance again to finish.`;
    case "Interrupted":
      return `An older Berth stopped during the run and closed it at its next start, restoring budgets; ${node} stays cordoned. Start maintenance again to finish.`;
  }
}
