import { randomUUID } from "node:crypto";
import type { Actor } from "../domain/audit.ts";
import type { MaintenancePreview } from "../domain/maintenance-preview.ts";
import type { MaintenanceOptions, MaintenanceProgress, MaintenanceRun, RunAuthority } from "../domain/maintenance.ts";
import { MaintenanceAlreadyRunningError, type Store } from "../store/index.ts";
import { MaintenanceRunNotFoundError, NodeNotFoundError, SandboxStateError } from "./lifecycle-errors.ts";

// Asking for maintenance, and asking it to stop: any replica takes these, and stores them. The
// elected writer runs the run (maintenance-runner.ts), hears of the request at once, and stops it
// after its current step when asked.

export class MaintenanceConflictError extends SandboxStateError {
  constructor(node: string, runId: string) {
    super(`A maintenance run on node ${node} is already running (${runId}): wait for it, or cancel it first.`);
  }
}

export interface MaintenanceRequestDeps {
  store: Pick<Store, "maintenance">;
  /** What draining the node would do to each pod on it; null for an unknown node. */
  preview: (node: string) => Promise<MaintenancePreview | null>;
  now?: () => Date;
}

/** Every pod of the preview, Pending, with what the drain was predicted to do to it. */
export function plannedProgress(preview: MaintenancePreview): MaintenanceProgress {
  return {
    sandboxes: preview.pods.flatMap((pod) =>
      pod.sandbox ? [{ sandboxId: pod.sandbox.id, name: pod.sandbox.name, namespace: pod.namespace, step: "Pending" as const, message: pod.message, checkpointId: null, outcome: pod.outcome, podUid: null }] : [],
    ),
    pods: preview.pods.filter((pod) => !pod.sandbox).map((pod) => ({ namespace: pod.namespace, pod: pod.pod, step: "Pending" as const, message: pod.message, outcome: pod.outcome })),
  };
}

/**
 * Stores a run of maintenance on the node, planned from what draining it would do now; the
 * writer takes it up. `authority`: whose the cordon and the evictions are — the person's, as
 * `kubectl drain` by them would be, in the API server's audit log and under their RBAC.
 */
export async function requestMaintenance(deps: MaintenanceRequestDeps, node: string, options: MaintenanceOptions, actor: Actor, authority: RunAuthority): Promise<MaintenanceRun> {
  const preview = await deps.preview(node);
  if (!preview) throw new NodeNotFoundError(node);
  const startedAt = (deps.now ?? (() => new Date()))();
  return deps.store.maintenance.startRun({ id: randomUUID(), node, actor, authority, options, progress: plannedProgress(preview), startedAt }).catch((error: unknown) => {
    throw error instanceof MaintenanceAlreadyRunningError ? new MaintenanceConflictError(node, error.runId) : error;
  });
}

/** Asks a running run to stop after its current step (budgets restored, node left cordoned). */
export async function requestCancel(store: Pick<Store, "maintenance">, id: string): Promise<MaintenanceRun> {
  const run = await store.maintenance.requestCancel(id);
  if (!run) throw new MaintenanceRunNotFoundError(id);
  if (run.state !== "Running") throw new SandboxStateError(`Maintenance run ${id} is not running: it ended ${run.state}${run.finishedAt ? ` at ${run.finishedAt.toISOString()}` : ""}.`);
  return run;
}
