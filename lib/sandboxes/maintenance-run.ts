import { setMaxListeners } from "node:events";
import { storedDisruptionPolicy } from "../domain/stored-spec.ts";
import type { BudgetRef, MaintenanceProgress, MaintenanceRun, MaintenanceRunState, SandboxProgress } from "../domain/maintenance.ts";
import type { SandboxRecord } from "../domain/sandbox-record.ts";
import { recordTimelineEvent } from "../events/record-timeline-event.ts";
import { connectionFor } from "../kube/acting-as.ts";
import { throttledSoFar } from "../kube/kube-errors.ts";
import { nodeResources } from "../kube/node-resources.ts";
import { podDisruptionBudgetName } from "../render/pod-disruption-budget.ts";
import { DeposedWriterError, type TakenRun, type WriterFence } from "../store/index.ts";
import { AdaptiveLimit } from "./adaptive-limit.ts";
import { checkpointSandbox } from "./checkpoint-sandbox.ts";
import type { ActionDeps } from "./sandbox-actions.ts";

// One run of planned maintenance of a node, as the writer runs it: cordon; take every sandbox of
// the node the whole way at once, each on its own — checkpoint it, then move it — so that the
// run lasts about as long as its slowest sandbox. Checkpoints and evictions go as many at once
// as the API server takes (an AdaptiveLimit, at most `parallelism` when it is set). Obey each
// sandbox's checkpoint failure policy (Block keeps it here and protected, Proceed goes on,
// ProceedAfterTimeout waits out the grace period first); relax a protected sandbox's budget only
// for its own eviction; evict (retrying while a budget says no); watch the replacement; put the
// budget back.
//
// Progress — each sandbox's step, the pod it evicted, every budget relaxed and not yet restored —
// is saved after each step, and every step can be taken again from what was saved: a writer that
// takes the run up after another stopped (a failover, a restart) goes on from there. Each save
// carries the writer's term, so a writer deposed mid-run stops, and leaves the run to the next.

/** Why a run stops before its end: asked to (it ends Cancelled), or its writer is no longer the writer. */
export type RunStop = "cancelled" | "deposed";

export interface MaintenanceRunDeps extends ActionDeps {
  /** Between evictions a budget refused, and between looks at a replacement. */
  retryMs?: number;
}

const policyOf = (record: SandboxRecord | null) => {
  const policy = storedDisruptionPolicy(record?.spec ?? {});
  return { onFailure: policy.checkpointFailurePolicy, graceSeconds: policy.checkpointGracePeriodSeconds ?? policy.terminationGracePeriodSeconds };
};

/** Waits, or less if the run is stopped or `wake` settles meanwhile. */
const sleep = (ms: number, signal: AbortSignal, wake?: Promise<void>) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    void wake?.then(done);
  });

/** How often a replacement is looked at besides whenever its record is written (a write whose notification was lost). */
const REPLACEMENT_LOOK_MS = 5_000;

/** Waits for all of `work` to end, then fails with the first failure: nothing is still under way when the run cleans up. */
async function allOf(work: Promise<void>[]): Promise<void> {
  const failed = (await Promise.allSettled(work)).find((result) => result.status === "rejected");
  if (failed) throw failed.reason;
}

const CHECKPOINT_STEPS: SandboxProgress["step"][] = ["Pending", "Checkpointing"];
const MOVE_STEPS: SandboxProgress["step"][] = ["Checkpointed", "Evicting", "Evicted"];

/** Where each sandbox had got to, in a sentence. */
const whereItWas = (progress: MaintenanceProgress) => progress.sandboxes.map((entry) => `${entry.name}: ${entry.step}`).join("; ") || "no sandbox had been reached";

export class MaintenanceRunExecution {
  private readonly run: MaintenanceRun;
  private readonly progress: MaintenanceProgress;
  private readonly relaxed: BudgetRef[];
  private readonly nodes: ReturnType<typeof nodeResources>;
  private readonly limit: AdaptiveLimit;

  constructor(
    private readonly deps: MaintenanceRunDeps,
    taken: TakenRun,
    private readonly signal: AbortSignal,
    private readonly fence: WriterFence | undefined,
  ) {
    this.run = taken.run;
    this.progress = structuredClone(taken.run.progress);
    this.relaxed = [...taken.run.relaxedBudgets];
    // The cordon and the evictions carry the authority the run was asked with; checkpoints and budgets are Berth's.
    this.nodes = nodeResources(connectionFor(deps.connection, taken.authority));
    // Every sandbox under way at once may be waiting on the signal.
    setMaxListeners(2 * this.progress.sandboxes.length + 10, signal);
    this.limit = new AdaptiveLimit(taken.run.options.parallelism ?? this.progress.sandboxes.length, throttledSoFar);
  }

  private get stoppedBecause(): RunStop | null {
    return this.signal.aborted ? (this.signal.reason as RunStop) : null;
  }

  private now(): Date {
    return (this.deps.now ?? (() => new Date()))();
  }

  /** Runs it to its end; null when its writer was deposed or stopped (the next writer resumes it). */
  async execute(): Promise<MaintenanceRun | null> {
    const { run, progress } = this;
    if (run.attempts === 1 && this.stoppedBecause === "cancelled") {
      const message = `Maintenance of ${run.node} was cancelled before it started: nothing was done, and the node was not cordoned`;
      await this.nodeEvent("MaintenanceCancelled", message, {});
      return this.deps.store.maintenance.finishRun(run.id, "Cancelled", message, this.now(), this.fence);
    }
    try {
      await this.nodes.setUnschedulable(run.node, true);
      if (run.attempts > 1) {
        await this.nodeEvent("MaintenanceResumed", `Maintenance of ${run.node} was taken up again by ${run.runBy ?? "another replica"} (attempt ${run.attempts}): the console running it stopped or stopped leading. It goes on from where it was — ${whereItWas(progress)}`, {});
      } else {
        await this.nodeEvent("MaintenanceStarted", `Maintenance of ${run.node} started: node cordoned; ${progress.sandboxes.length} sandbox(es) to checkpoint and move, ${progress.pods.length} other pod(s)`, {});
      }
      await allOf(progress.sandboxes.map((entry) => this.carry(entry)));
      for (const pod of progress.pods.filter((one) => one.step === "Pending")) {
        if (this.signal.aborted) break;
        if (pod.outcome !== "evicted") {
          Object.assign(pod, { step: "Skipped" });
        } else {
          const result = await this.evictUntil(pod.namespace, pod.pod);
          Object.assign(pod, result === "refused" ? { step: "Failed", message: `Eviction still refused after ${run.options.evictionTimeoutSeconds} s` } : { step: "Evicted" });
        }
        await this.save();
      }
    } catch (error) {
      if (this.stoppedBecause === "deposed" || error instanceof DeposedWriterError) return null;
      await this.restoreBudgets().catch(() => {});
      const message = `Maintenance of ${run.node} failed: ${(error as Error).message}. Budgets it had relaxed were restored; the node is left cordoned.`;
      await this.nodeEvent("MaintenanceFailed", message, {});
      return this.deps.store.maintenance.finishRun(run.id, "Failed", message, this.now(), this.fence);
    }
    if (this.stoppedBecause === "deposed") return null;
    await this.restoreBudgets();
    const { state, message: outcome } = this.outcome();
    const { pace } = this.limit;
    const message = pace.throttled > 0 ? `${outcome}. The API server throttled Berth ${pace.throttled} time(s) meanwhile, so the run slowed down to as few as ${pace.fewestAtOnce} checkpoint(s) or eviction(s) at once` : outcome;
    await this.nodeEvent(`Maintenance${state}`, message, { progress, pace });
    return this.deps.store.maintenance.finishRun(run.id, state, message, this.now(), this.fence);
  }

  private save() {
    return this.deps.store.maintenance.saveProgress(this.run.id, this.progress, this.relaxed, this.fence);
  }

  private async relax(budget: BudgetRef): Promise<void> {
    // Saved before it is relaxed: whoever finds this run unfinished knows to put it back.
    if (!this.relaxed.some((one) => one.namespace === budget.namespace && one.name === budget.name)) {
      this.relaxed.push(budget);
      await this.save();
    }
    await this.deps.resources.setBudgetMinAvailable(budget.namespace, budget.name, 0);
  }

  private async restore(budget: BudgetRef): Promise<void> {
    await this.deps.resources.setBudgetMinAvailable(budget.namespace, budget.name, 1);
    const index = this.relaxed.findIndex((one) => one.namespace === budget.namespace && one.name === budget.name);
    if (index >= 0) this.relaxed.splice(index, 1);
    await this.save();
  }

  private async restoreBudgets(): Promise<void> {
    for (const budget of [...this.relaxed]) await this.restore(budget);
  }

  /** One sandbox the whole way from where it is: its checkpoint, then its move, waiting for no other. */
  private async carry(entry: SandboxProgress): Promise<void> {
    if (CHECKPOINT_STEPS.includes(entry.step)) await this.limit.run(() => this.checkpointStep(entry));
    if (MOVE_STEPS.includes(entry.step)) await this.moveStep(entry);
  }

  private async checkpointStep(entry: SandboxProgress): Promise<void> {
    if (this.signal.aborted) return;
    const node = this.run.node;
    const pod = await this.deps.resources.readPod(entry.namespace, entry.name);
    if (!pod || pod.metadata?.deletionTimestamp || pod.spec?.nodeName !== node) {
      const where = pod && !pod.metadata?.deletionTimestamp ? `it runs on ${pod.spec?.nodeName ?? "no node yet"}` : "its pod is gone";
      Object.assign(entry, { step: "Left", message: `It was no longer on ${node} when the run reached it (${where}): nothing to checkpoint or move` });
      await this.save();
      await this.sandboxEvent(entry, "MaintenanceLeft");
      return;
    }
    const resumed = entry.step === "Checkpointing";
    entry.step = "Checkpointing";
    await this.save();
    const record = await this.deps.store.sandboxes.getSandbox(entry.sandboxId);
    const policy = policyOf(record);
    const made = resumed ? await this.checkpointMadeMeanwhile(entry) : null;
    if (!made && this.signal.aborted) return;
    const checkpoint = made ?? (await this.checkpoint(entry));
    if (this.stoppedBecause === "deposed") return;
    if (!(checkpoint instanceof Error)) entry.checkpointId = checkpoint.id;
    const succeeded = !(checkpoint instanceof Error) && checkpoint.result === "Succeeded";
    const result = checkpoint instanceof Error ? `could not run (${checkpoint.message})` : checkpoint.result;
    const blocked = !succeeded && policy.onFailure === "Block";
    if (succeeded) {
      Object.assign(entry, { step: "Checkpointed", message: "Checkpointed: its work is saved and the marker written" });
    } else if (blocked) {
      const budget = podDisruptionBudgetName(entry.name);
      const guarded = (await this.deps.resources.readBudget(entry.namespace, budget)) ? `, protected by PodDisruptionBudget ${budget},` : "";
      Object.assign(entry, { step: "WaitingForOperator", message: `Checkpoint ${result}; its policy (Block) keeps it on ${node}${guarded} and it was not evicted. Fix the hook or checkpoint it by hand, then run maintenance again — or stop the sandbox (its claims are kept).` });
    } else {
      if (policy.onFailure === "ProceedAfterTimeout") {
        const deadline = (checkpoint instanceof Error ? this.now().getTime() : checkpoint.startedAt.getTime()) + policy.graceSeconds * 1000;
        await sleep(Math.max(0, deadline - this.now().getTime()), this.signal);
      }
      Object.assign(entry, { step: "Checkpointed", message: `Checkpoint ${result}; policy ${policy.onFailure}: evicting it anyway` });
    }
    await this.save();
    await this.sandboxEvent(entry, blocked ? "MaintenanceBlocked" : "MaintenanceCheckpointed");
  }

  private checkpoint(entry: SandboxProgress) {
    const actor = { username: this.run.actor, groups: this.run.actorGroups, requestId: null };
    return checkpointSandbox(this.deps, entry.sandboxId, "Maintenance", actor).catch((error: unknown) => error as Error);
  }

  /**
   * Resuming a sandbox whose checkpoint was under way when the last writer stopped: the one that
   * checkpoint was is waited out (until it ends, or its replica is known gone), and if it, or
   * any other, succeeded since the run began, it stands — a sandbox is checkpointed once a run.
   */
  private async checkpointMadeMeanwhile(entry: SandboxProgress) {
    while ((await this.deps.checkpointing?.anywhere(entry.sandboxId)) && !this.signal.aborted) await sleep(this.deps.retryMs ?? 2_000, this.signal);
    const made = await this.deps.store.checkpoints.listCheckpoints(entry.sandboxId, 10);
    return made.find((one) => one.result === "Succeeded" && one.startedAt >= this.run.startedAt) ?? null;
  }

  private async moveStep(entry: SandboxProgress): Promise<void> {
    if (this.signal.aborted) return;
    const { run } = this;
    const name = podDisruptionBudgetName(entry.name);
    const budget = (await this.deps.resources.readBudget(entry.namespace, name)) ? { namespace: entry.namespace, name } : null;
    if (entry.step === "Checkpointed") {
      entry.podUid = (await this.deps.resources.readPod(entry.namespace, entry.name))?.metadata?.uid ?? null;
      entry.step = "Evicting";
      await this.save();
    }
    if (entry.step === "Evicting") {
      if (budget) await this.relax(budget);
      const evicted = await this.evictUntil(entry.namespace, entry.name, entry.podUid ?? undefined);
      if (this.signal.aborted && evicted === "refused") {
        if (budget) await this.restore(budget);
        return;
      }
      if (evicted === "refused") {
        if (budget) await this.restore(budget);
        Object.assign(entry, { step: "Failed", message: `Its eviction was still refused after ${run.options.evictionTimeoutSeconds} s` });
        await this.save();
        await this.sandboxEvent(entry, "MaintenanceEvictionFailed");
        return;
      }
      Object.assign(entry, { step: "Evicted", message: "Evicted: its replacement is on the way" });
      await this.save();
      await this.sandboxEvent(entry, "MaintenanceEvicted");
    }
    if (entry.outcome === "waitsForNode") {
      if (budget) await this.restore(budget);
      Object.assign(entry, { step: "WaitingForNode", message: `Its volume is pinned to ${run.node}: it comes back, with its files, when the node is uncordoned` });
    } else {
      const replaced = await this.replacementReady(entry);
      if (this.stoppedBecause === "deposed") return;
      if (budget) await this.restore(budget);
      if (!replaced && this.signal.aborted) {
        entry.message = "Evicted; the run was cancelled before its replacement was Ready: see the sandbox's status";
        await this.save();
        return;
      }
      Object.assign(entry, replaced
        ? { step: "Replaced", message: `Its replacement is Ready on ${replaced}` }
        : { step: "Failed", message: `Its replacement was not Ready within ${run.options.replacementTimeoutSeconds} s: see the sandbox's status for why` });
    }
    await this.save();
    await this.sandboxEvent(entry, `Maintenance${entry.step}`);
  }

  /** Evicts (only the pod with `uid`, when given), retrying while a budget refuses, until the deadline. */
  private async evictUntil(namespace: string, name: string, uid?: string): Promise<"evicted" | "gone" | "refused"> {
    const deadline = Date.now() + this.run.options.evictionTimeoutSeconds * 1000;
    for (;;) {
      const result = await this.limit.run(() => this.nodes.evictPod(namespace, name, uid));
      if (result !== "refused" || Date.now() >= deadline || this.signal.aborted) return result;
      await sleep(this.deps.retryMs ?? 2_000, this.signal);
    }
  }

  /**
   * The node the replacement of the evicted pod is Ready on, or null at the deadline. Its record
   * is read whenever it is written, not polled: fifty sandboxes waiting at once would otherwise
   * keep the store busy with reads of records that have not changed.
   */
  private async replacementReady(entry: SandboxProgress): Promise<string | null> {
    const deadline = Date.now() + this.run.options.replacementTimeoutSeconds * 1000;
    let written = () => {};
    const stopHearing = this.deps.store.sandboxes.onChanged((id) => {
      if (id === null || id === entry.sandboxId) written();
    });
    try {
      while (Date.now() < deadline && !this.signal.aborted) {
        const change = new Promise<void>((resolve) => (written = resolve));
        const record = await this.deps.store.sandboxes.getSandbox(entry.sandboxId);
        if (record?.phase === "Ready" && record.podUid && record.podUid !== entry.podUid) return record.nodeName ?? "a node";
        await sleep(Math.min(REPLACEMENT_LOOK_MS, deadline - Date.now()), this.signal, change);
      }
      return null;
    } finally {
      stopHearing();
    }
  }

  private outcome(): { state: Exclude<MaintenanceRunState, "Running">; message: string } {
    const { node } = this.run;
    const { progress } = this;
    const count = (step: string) => progress.sandboxes.filter((entry) => entry.step === step).length;
    const summary = `${count("Replaced")} moved, ${count("WaitingForNode")} waiting for the node, ${count("WaitingForOperator")} blocked, ${count("Failed")} failed${count("Left") > 0 ? `, ${count("Left")} had left already` : ""}`;
    if (this.stoppedBecause === "cancelled") return { state: "Cancelled", message: `Maintenance of ${node} was cancelled (${summary}); budgets restored; the node is left cordoned` };
    if (count("WaitingForOperator") > 0) return { state: "Blocked", message: `Maintenance of ${node} is blocked: ${summary}. The blocked sandboxes are still on the node, protected; see each for what to do` };
    if (count("Failed") > 0 || progress.pods.some((pod) => pod.step === "Failed")) return { state: "Failed", message: `Maintenance of ${node} finished with failures: ${summary}` };
    return { state: "Succeeded", message: `Maintenance of ${node} is done: ${summary}. The node is cordoned and empty of sandboxes; uncordon it when the work on it is finished` };
  }

  private nodeEvent(reason: string, message: string, data: Record<string, unknown>) {
    return recordTimelineEvent(this.deps.store.timeline, { sandboxId: null, type: "Maintenance", reason, message, occurredAt: this.now(), data: { node: this.run.node, runId: this.run.id, ...data } }, { fence: this.fence });
  }

  private sandboxEvent(entry: SandboxProgress, reason: string) {
    const { run } = this;
    return recordTimelineEvent(this.deps.store.timeline, { sandboxId: entry.sandboxId, type: "Maintenance", reason, message: entry.message, occurredAt: this.now(), data: { runId: run.id, node: run.node, step: entry.step, checkpointId: entry.checkpointId } }, { fence: this.fence, about: entry });
  }
}
