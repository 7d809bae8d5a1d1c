import type { MaintenanceRun, SandboxProgress } from "../domain/maintenance.ts";

// How far each sandbox of a maintenance run has come, as a bar fills: the steps in the order a
// sandbox goes through them, the ones it ends in counting as the whole way.

export const STEPS_TO_DONE = 5;

const STEP_VALUE: Record<SandboxProgress["step"], number> = {
  Pending: 0,
  Checkpointing: 1,
  Checkpointed: 2,
  WaitingForOperator: 2,
  Evicting: 3,
  Evicted: 4,
  Replaced: STEPS_TO_DONE,
  WaitingForNode: STEPS_TO_DONE,
  Left: STEPS_TO_DONE,
  Failed: STEPS_TO_DONE,
};

export const stepValue = (progress: SandboxProgress) => STEP_VALUE[progress.step];

/** One line per sandbox step, for a log or a pipe: what changed since `before`. */
export function changedSteps(before: MaintenanceRun | null, now: MaintenanceRun): SandboxProgress[] {
  const previous = new Map(before?.progress.sandboxes.map((one) => [one.sandboxId, `${one.step} ${one.message}`]) ?? []);
  return now.progress.sandboxes.filter((one) => previous.get(one.sandboxId) !== `${one.step} ${one.message}`);
}

export const finished = (run: MaintenanceRun) => run.state !== "Running";
