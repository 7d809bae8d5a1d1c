import { randomUUID } from "node:crypto";
import type { Actor } from "../domain/audit.ts";
import type { MaintenancePreview } from "../domain/maintenance-preview.ts";
import { checkpointFailurePolicySchema, DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS } from "../domain/disruption-policy.ts";
import type { BudgetRef, MaintenanceOptions, MaintenanceProgress, MaintenanceRun, MaintenanceRunState, SandboxProgress } from "../domain/maintenance.ts";
import type { SandboxRecord } from "../domain/sandbox-record.ts";
import { recordTimelineEvent } from "../events/record-timeline-event.ts";
import type { ClusterConnection } from "../kube/cluster-connection.ts";
import { nodeResources } from "../kube/node-resources.ts";
import { podDisruptionBudgetName } from "../render/pod-disruption-budget.ts";
import { checkpointSandbox } from "./checkpoint-sandbox.ts";
import { NodeNotFoundError, SandboxStateError } from "./lifecycle-errors.ts";
import type { ActionDeps } from "./sandbox-actions.ts";
import { MaintenanceAlreadyRunningError } from "../store/index.ts";
import { untracked, type OperationsInFlight } from "./operations-in-flight.ts";

// Planned maintenance of a node: cordon; checkpoint its sandboxes and then move them (a few at a
// time: `parallelism`); obey each
// sandbox's checkpoint failure policy (Block keeps it here and protected, Proceed goes on,
// ProceedAfterTimeout waits out the grace period first); relax a protected sandbox's budget only
// for its own eviction; evict (retrying while a budget says no); watch the replacement; put the
// budget back. Progress — and every budget relaxed and not yet restored — is saved after each
// step, so a console that stops mid-run restores the budgets and reports where it stopped.

type NodeCalls = ReturnType<typeof nodeResources>;

/** A run going on in this console: how to stop it, whose cordon and evictions it makes, its end. */
interface RunInProgress {
  abort: AbortController;
  nodes: NodeCalls;
  done?: Promise<MaintenanceRun>;
}

export interface MaintenanceDeps extends ActionDeps {
  /**
   * Runs in flight, in any replica: a run is registered before it is stored, so that no replica
   * takes a run another is running for one a stopped console left behind.
   */
  maintenanceRuns?: Pick<OperationsInFlight, "run" | "anywhere">;
  /** What draining the node would do to each pod on it; null for an unknown node. */
  preview: (node: string) => Promise<MaintenancePreview | null>;
  /** Between evictions a budget refused, and between looks at a replacement. */
  retryMs?: number;
}

export class MaintenanceConflictError extends SandboxStateError {
  constructor(node: string, runId: string) {
    super(`A maintenance run on node ${node} is already running (${runId}): wait for it, or cancel it first.`);
  }
}

const policyOf = (record: SandboxRecord | null) => {
  const policy = (record?.spec.disruptionPolicy ?? {}) as { checkpointFailurePolicy?: string; checkpointGracePeriodSeconds?: number; terminationGracePeriodSeconds?: number };
  return {
    onFailure: checkpointFailurePolicySchema.catch("Block").parse(policy.checkpointFailurePolicy ?? "Block"),
    graceSeconds: policy.checkpointGracePeriodSeconds ?? policy.terminationGracePeriodSeconds ?? DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS,
  };
};

/** Waits, or less if the run is cancelled meanwhile. */
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });

/** Runs `work` over `items`, at most `limit` at a time. */
async function inPool<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

export class MaintenanceRunner {
  private readonly running = new Map<string, RunInProgress>();

  constructor(private readonly deps: MaintenanceDeps) {}

  private now(): Date {
    return (this.deps.now ?? (() => new Date()))();
  }

  /**
   * Runs a console that stopped left Running: nothing runs them now. Each budget one relaxed is
   * restored, and the run is closed as Interrupted, saying where every sandbox had got to.
   */
  async closeInterrupted(): Promise<MaintenanceRun[]> {
    const closed: MaintenanceRun[] = [];
    for (const run of await this.deps.store.maintenance.listRunning()) {
      if (this.running.has(run.id) || (await this.deps.maintenanceRuns?.anywhere(run.id))) continue;
      const restored: string[] = [];
      for (const budget of run.relaxedBudgets) {
        await this.deps.resources.setBudgetMinAvailable(budget.namespace, budget.name, 1).catch(() => {});
        restored.push(`${budget.namespace}/${budget.name}`);
      }
      await this.deps.store.maintenance.saveProgress(run.id, run.progress, []);
      const where = run.progress.sandboxes.map((entry) => `${entry.name}: ${entry.step}`).join("; ") || "no sandbox had been reached";
      const message = `The console stopped during this run. Where it stopped — ${where}. Budgets restored: ${restored.join(", ") || "none were relaxed"}. Node ${run.node} is left cordoned: uncordon it or run maintenance again.`;
      closed.push(await this.deps.store.maintenance.finishRun(run.id, "Interrupted", message, this.now()));
      await this.nodeEvent(run.node, "MaintenanceInterrupted", message, { runId: run.id, restoredBudgets: restored });
    }
    return closed;
  }

  /**
   * Starts a run on the node and answers at once with it; progress follows on the timeline.
   * `as`: Kubernetes as the person who asked, so the cordon and every eviction are theirs — in
   * the API server's audit log and under their RBAC — while checkpoints and budgets stay Berth's.
   */
  async start(node: string, options: MaintenanceOptions, actor: Actor, as: ClusterConnection): Promise<MaintenanceRun> {
    const preview = await this.deps.preview(node);
    if (!preview) throw new NodeNotFoundError(node);
    const id = randomUUID();
    const entry: RunInProgress = { abort: new AbortController(), nodes: nodeResources(as) };
    return new Promise<MaintenanceRun>((resolve, reject) => {
      this.running.set(id, entry);
      // Registered for every replica to see for as long as it runs, from before it is stored.
      entry.done = (this.deps.maintenanceRuns ?? untracked)
        .run(id, async () => {
          // The store decides, so that a run another replica started counts as much as one of ours.
          const run = await this.deps.store.maintenance.startRun({ id, node, actor, options, startedAt: this.now() }).catch((error: unknown) => {
            throw error instanceof MaintenanceAlreadyRunningError ? new MaintenanceConflictError(node, error.runId) : error;
          });
          resolve(run);
          return this.execute(run, preview, entry.abort.signal);
        })
        .finally(() => this.running.delete(id));
      entry.done.catch(reject);
    });
  }

  /** Asks a running run to stop after its current step; false when no such run is running here. */
  cancel(id: string): boolean {
    const entry = this.running.get(id);
    entry?.abort.abort();
    return entry !== undefined;
  }

  /** The run once it has finished (tests, benchmarks). */
  async finished(id: string): Promise<MaintenanceRun | null> {
    const entry = this.running.get(id);
    return entry?.done ?? this.deps.store.maintenance.getRun(id);
  }

  private async execute(run: MaintenanceRun, preview: MaintenancePreview, signal: AbortSignal): Promise<MaintenanceRun> {
    const progress: MaintenanceProgress = {
      sandboxes: preview.pods.flatMap((pod) => (pod.sandbox ? [{ sandboxId: pod.sandbox.id, name: pod.sandbox.name, namespace: pod.namespace, step: "Pending" as const, message: pod.message, checkpointId: null }] : [])),
      pods: preview.pods.filter((pod) => !pod.sandbox).map((pod) => ({ namespace: pod.namespace, pod: pod.pod, step: "Pending" as const, message: pod.message })),
    };
    const relaxed: BudgetRef[] = [];
    const save = () => this.deps.store.maintenance.saveProgress(run.id, progress, relaxed);
    const restore = async (budget: BudgetRef) => {
      await this.deps.resources.setBudgetMinAvailable(budget.namespace, budget.name, 1);
      relaxed.splice(relaxed.indexOf(budget), 1);
      await save();
    };
    try {
      await save();
      await this.nodesOf(run).setUnschedulable(run.node, true);
      await this.nodeEvent(run.node, "MaintenanceStarted", `Maintenance of ${run.node} started: node cordoned; ${progress.sandboxes.length} sandbox(es) to checkpoint and move, ${progress.pods.length} other pod(s)`, { runId: run.id });

      await inPool(progress.sandboxes, run.options.parallelism, (entry) => this.checkpointStep(run, entry, save, signal));
      await inPool(progress.sandboxes.filter((one) => one.step === "Checkpointed"), run.options.parallelism, async (entry) => {
        if (signal.aborted) return;
        const outcome = preview.pods.find((pod) => pod.sandbox?.id === entry.sandboxId)?.outcome;
        await this.moveStep(run, entry, outcome === "waitsForNode", { relaxed, save, restore }, signal);
      });
      for (const pod of progress.pods) {
        if (signal.aborted) break;
        const predicted = preview.pods.find((one) => one.namespace === pod.namespace && one.pod === pod.pod)?.outcome;
        if (predicted !== "evicted") {
          Object.assign(pod, { step: "Skipped" });
        } else {
          const result = await this.evictUntil(run, pod.namespace, pod.pod, run.options.evictionTimeoutSeconds, signal);
          Object.assign(pod, result === "refused" ? { step: "Failed", message: `Eviction still refused after ${run.options.evictionTimeoutSeconds} s` } : { step: "Evicted" });
        }
        await save();
      }
    } catch (error) {
      for (const budget of [...relaxed]) await restore(budget).catch(() => {});
      const message = `Maintenance of ${run.node} failed: ${(error as Error).message}. Budgets it had relaxed were restored; the node is left cordoned.`;
      await this.nodeEvent(run.node, "MaintenanceFailed", message, { runId: run.id });
      return this.deps.store.maintenance.finishRun(run.id, "Failed", message, this.now());
    }
    for (const budget of [...relaxed]) await restore(budget);
    const { state, message } = this.outcome(run.node, progress, signal.aborted);
    await this.nodeEvent(run.node, `Maintenance${state}`, message, { runId: run.id, progress });
    return this.deps.store.maintenance.finishRun(run.id, state, message, this.now());
  }

  private async checkpointStep(run: MaintenanceRun, entry: SandboxProgress, save: () => Promise<unknown>, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return;
    entry.step = "Checkpointing";
    await save();
    const record = await this.deps.store.sandboxes.getSandbox(entry.sandboxId);
    const policy = policyOf(record);
    const checkpoint = await checkpointSandbox(this.deps, entry.sandboxId, "Maintenance", { username: run.actor, groups: run.actorGroups, requestId: null }).catch((error: unknown) => error as Error);
    if (!(checkpoint instanceof Error)) entry.checkpointId = checkpoint.id;
    const result = checkpoint instanceof Error ? `could not run (${checkpoint.message})` : checkpoint.result;
    const blocked = !(!(checkpoint instanceof Error) && checkpoint.result === "Succeeded") && policy.onFailure === "Block";
    if (!(checkpoint instanceof Error) && checkpoint.result === "Succeeded") {
      Object.assign(entry, { step: "Checkpointed", message: "Checkpointed: its work is saved and the marker written" });
    } else if (blocked) {
      Object.assign(entry, { step: "WaitingForOperator", message: `Checkpoint ${result}; policy Block keeps it on the node, protected, and not evicted. Fix the hook or checkpoint it by hand, then run maintenance again — or change its policy.` });
    } else {
      if (policy.onFailure === "ProceedAfterTimeout") {
        const deadline = (checkpoint instanceof Error ? this.now().getTime() : checkpoint.startedAt.getTime()) + policy.graceSeconds * 1000;
        await sleep(Math.max(0, deadline - this.now().getTime()), signal);
      }
      Object.assign(entry, { step: "Checkpointed", message: `Checkpoint ${result}; policy ${policy.onFailure}: evicting it anyway` });
    }
    await save();
    await this.sandboxEvent(entry, run, blocked ? "MaintenanceBlocked" : "MaintenanceCheckpointed");
  }

  private async moveStep(
    run: MaintenanceRun,
    entry: SandboxProgress,
    waitsForNode: boolean,
    budgets: { relaxed: BudgetRef[]; save: () => Promise<unknown>; restore: (budget: BudgetRef) => Promise<void> },
    signal: AbortSignal,
  ): Promise<void> {
    const before = await this.deps.resources.readPod(entry.namespace, entry.name);
    const name = podDisruptionBudgetName(entry.name);
    const budget = (await this.deps.resources.readBudget(entry.namespace, name)) ? { namespace: entry.namespace, name } : null;
    if (budget) {
      // Saved before it is relaxed: whoever finds this run unfinished knows to put it back.
      budgets.relaxed.push(budget);
      await budgets.save();
      await this.deps.resources.setBudgetMinAvailable(budget.namespace, budget.name, 0);
    }
    entry.step = "Evicting";
    await budgets.save();
    const evicted = await this.evictUntil(run, entry.namespace, entry.name, run.options.evictionTimeoutSeconds, signal);
    if (evicted === "refused") {
      if (budget) await budgets.restore(budget);
      Object.assign(entry, { step: "Failed", message: `Its eviction was still refused after ${run.options.evictionTimeoutSeconds} s` });
      await budgets.save();
      await this.sandboxEvent(entry, run, "MaintenanceEvictionFailed");
      return;
    }
    Object.assign(entry, { step: "Evicted", message: "Evicted: its replacement is on the way" });
    await budgets.save();
    await this.sandboxEvent(entry, run, "MaintenanceEvicted");
    if (waitsForNode) {
      if (budget) await budgets.restore(budget);
      Object.assign(entry, { step: "WaitingForNode", message: `Its volume is pinned to ${run.node}: it comes back, with its files, when the node is uncordoned` });
    } else {
      const replaced = await this.replacementReady(entry, before?.metadata?.uid, run.options.replacementTimeoutSeconds, signal);
      if (budget) await budgets.restore(budget);
      Object.assign(entry, replaced
        ? { step: "Replaced", message: `Its replacement is Ready on ${replaced}` }
        : { step: "Failed", message: `Its replacement was not Ready within ${run.options.replacementTimeoutSeconds} s: see the sandbox's status for why` });
    }
    await budgets.save();
    await this.sandboxEvent(entry, run, `Maintenance${entry.step}`);
  }

  /** Evicts, retrying while a budget refuses, until the deadline. */
  private async evictUntil(run: MaintenanceRun, namespace: string, name: string, timeoutSeconds: number, signal: AbortSignal): Promise<"evicted" | "gone" | "refused"> {
    const deadline = Date.now() + timeoutSeconds * 1000;
    for (;;) {
      const result = await this.nodesOf(run).evictPod(namespace, name);
      if (result !== "refused" || Date.now() >= deadline || signal.aborted) return result;
      await sleep(this.deps.retryMs ?? 2_000, signal);
    }
  }

  /** The run's cordon and evictions: as whoever started it. */
  private nodesOf(run: MaintenanceRun): NodeCalls {
    const entry = this.running.get(run.id);
    if (!entry) throw new Error(`maintenance run ${run.id} is not running in this console`);
    return entry.nodes;
  }

  /** The node the replacement is Ready on, or null at the deadline. */
  private async replacementReady(entry: SandboxProgress, oldPodUid: string | undefined, timeoutSeconds: number, signal: AbortSignal): Promise<string | null> {
    const deadline = Date.now() + timeoutSeconds * 1000;
    while (Date.now() < deadline && !signal.aborted) {
      const record = await this.deps.store.sandboxes.getSandbox(entry.sandboxId);
      if (record?.phase === "Ready" && record.podUid && record.podUid !== oldPodUid) return record.nodeName ?? "a node";
      await sleep(Math.min(this.deps.retryMs ?? 2_000, 500), signal);
    }
    return null;
  }

  private outcome(node: string, progress: MaintenanceProgress, cancelled: boolean): { state: Exclude<MaintenanceRunState, "Running">; message: string } {
    const count = (step: string) => progress.sandboxes.filter((entry) => entry.step === step).length;
    const summary = `${count("Replaced")} moved, ${count("WaitingForNode")} waiting for the node, ${count("WaitingForOperator")} blocked, ${count("Failed")} failed`;
    if (cancelled) return { state: "Cancelled", message: `Maintenance of ${node} was cancelled (${summary}); budgets restored; the node is left cordoned` };
    if (count("WaitingForOperator") > 0) return { state: "Blocked", message: `Maintenance of ${node} is blocked: ${summary}. The blocked sandboxes are still on the node, protected; see each for what to do` };
    if (count("Failed") > 0 || progress.pods.some((pod) => pod.step === "Failed")) return { state: "Failed", message: `Maintenance of ${node} finished with failures: ${summary}` };
    return { state: "Succeeded", message: `Maintenance of ${node} is done: ${summary}. The node is cordoned and empty of sandboxes; uncordon it when the work on it is finished` };
  }

  private nodeEvent(node: string, reason: string, message: string, data: Record<string, unknown>) {
    return recordTimelineEvent(this.deps.store.timeline, { sandboxId: null, type: "Maintenance", reason, message, occurredAt: this.now(), data: { node, ...data } });
  }

  private sandboxEvent(entry: SandboxProgress, run: MaintenanceRun, reason: string) {
    return recordTimelineEvent(this.deps.store.timeline, { sandboxId: entry.sandboxId, type: "Maintenance", reason, message: entry.message, occurredAt: this.now(), data: { runId: run.id, node: run.node, step: entry.step, checkpointId: entry.checkpointId } });
  }
}
