import { BERTH_ACTOR } from "../domain/audit.ts";
import { berthLabelKeys } from "../domain/labels.ts";
import type { SandboxRecord } from "../domain/sandbox-record.ts";
import { recordTimelineEvent } from "../events/record-timeline-event.ts";
import type { SandboxResources } from "../kube/sandbox-resources.ts";
import type { Store, WriterFence } from "../store/index.ts";
import { describeSweep, sweepClaims } from "./claim-sweep.ts";
import type { LiveSandboxes } from "./live-sandboxes.ts";
import type { OperationsInFlight } from "./operations-in-flight.ts";
import type { SandboxWatches } from "./sandbox-watches.ts";

// Keeping the store and the cluster in step, the writer's job besides statuses: a Sandbox found
// in the cluster without a record (made outside Berth, or while Berth was down) is recorded as
// found; a record whose Sandbox is gone (deleted outside Berth) is closed; what an interrupted
// create made is removed, and so is a late Sandbox of such a create; a checkpoint no replica
// runs any more is closed. Every write carries the writer's fence.

export interface RecordUpkeepDeps {
  store: Store;
  resources: SandboxResources;
  watches: SandboxWatches;
  live: LiveSandboxes;
  labelPrefix: string;
  checkpointing?: OperationsInFlight;
  fence: () => WriterFence | undefined;
  now: () => Date;
  /** Asks for the sandbox to be reconciled (a find labelled for a record). */
  reconcileLater: (id: string) => void;
}

export class RecordUpkeep {
  private readonly keys: ReturnType<typeof berthLabelKeys>;

  constructor(private readonly deps: RecordUpkeepDeps) {
    this.keys = berthLabelKeys(deps.labelPrefix);
  }

  /**
   * Checkpoints left Running that no replica runs (the one that ran them stopped): close them,
   * saying so. At start, and at each resync, since a replica can stop at any time.
   */
  async closeInterruptedCheckpoints(): Promise<void> {
    const { store, now } = this.deps;
    const fence = this.deps.fence();
    const stillRunning = (await this.deps.checkpointing?.runningAnywhere()) ?? new Set<string>();
    for (const checkpoint of await store.checkpoints.failInterrupted(now(), stillRunning, fence)) {
      await recordTimelineEvent(store.timeline, {
        sandboxId: checkpoint.sandboxId,
        type: "Checkpoint",
        reason: "CheckpointInterrupted",
        message: "The console stopped while this checkpoint was running; it is recorded as Failed. Run it again if the sandbox still needs one.",
        occurredAt: now(),
        data: { checkpointId: checkpoint.id, trigger: checkpoint.trigger },
      }, { fence });
    }
  }

  /**
   * The console stopped while creating this sandbox, so nobody was told it exists: remove what
   * that create made (its Sandbox and the claims it made) and close the record, saying so.
   */
  async undoInterruptedCreate(record: SandboxRecord): Promise<void> {
    const { resources, store } = this.deps;
    const live = await resources.readSandbox(record.namespace, record.name);
    const ours = live !== null && live.metadata.labels?.[this.keys.sandboxId] === record.id;
    if (ours) await resources.deleteSandbox(record.namespace, record.name);
    const swept = await sweepClaims(resources, this.deps.labelPrefix, record, "allMadeForIt");
    const message = `The create of ${record.namespace}/${record.name} was interrupted (the console stopped before it finished); what it made was removed: Sandbox ${ours ? record.name : "none"}; ${describeSweep(swept)}`;
    await this.close(record, "CreateInterrupted", message, { sandboxRemoved: ours, ...swept });
    await store.audit.recordChange({ actor: BERTH_ACTOR, action: "sandbox.create", targetKind: "Sandbox", targetId: record.id, outcome: "Failed", details: { namespace: record.namespace, name: record.name, error: "interrupted", ...swept } });
  }

  /**
   * An interrupted create's Sandbox request can land after the undo (the API server finishes a
   * write whose client is gone): such a Sandbox belongs to nobody and is removed as well.
   */
  async removeLateSandbox(record: SandboxRecord): Promise<void> {
    if (record.reason !== "CreateInterrupted") return;
    const late = this.deps.watches.sandboxes.get(record.namespace, record.name);
    if (!late || late.metadata?.deletionTimestamp || late.metadata?.labels?.[this.keys.sandboxId] !== record.id) return;
    await this.deps.resources.deleteSandbox(record.namespace, record.name);
    const swept = await sweepClaims(this.deps.resources, this.deps.labelPrefix, record, "allMadeForIt");
    await recordTimelineEvent(this.deps.store.timeline, {
      sandboxId: record.id,
      type: "Lifecycle",
      reason: "LateSandboxRemoved",
      message: `The interrupted create's Sandbox request reached the cluster after the undo; that Sandbox was removed too; ${describeSweep(swept)}`,
      occurredAt: this.deps.now(),
      data: { sandboxUid: late.metadata?.uid, ...swept },
    }, { fence: this.deps.fence(), about: record });
  }

  /** Someone deleted the Sandbox behind Berth's back: sweep its `delete` claims as Berth would have. */
  async closeDeletedOutsideBerth(record: SandboxRecord): Promise<void> {
    const swept = await sweepClaims(this.deps.resources, this.deps.labelPrefix, record, "ownedForDeletion");
    await this.close(record, "DeletedOutsideBerth", `The Sandbox was deleted outside Berth (kubectl, another gateway, or its namespace); ${describeSweep(swept)}`, { ...swept });
  }

  /** A Sandbox with no live record: made outside Berth, or while Berth was down. Record it as found. */
  async discover(namespace: string, name: string): Promise<void> {
    const { store, now } = this.deps;
    const sandbox = this.deps.watches.sandboxes.get(namespace, name);
    if (!sandbox || sandbox.metadata?.deletionTimestamp) return;
    if (await store.sandboxes.findLiveSandbox(namespace, name)) return;
    // Labelled for a record that is closed: Berth deleted it and the cache lags, or it is an
    // interrupted create's late arrival. Either way it is that record's business, not a find.
    const labelledId = sandbox.metadata?.labels?.[this.keys.sandboxId];
    if (labelledId && (await store.sandboxes.getSandbox(labelledId))) {
      this.deps.reconcileLater(labelledId);
      return;
    }
    const fence = this.deps.fence();
    const templates = (sandbox.spec?.volumeClaimTemplates as unknown[] | undefined) ?? [];
    const created = sandbox.metadata?.creationTimestamp ? new Date(sandbox.metadata.creationTimestamp as unknown as string) : now();
    const record = await store.sandboxes
      .recordSandbox({ name, namespace, spec: { name, namespace }, workspaceBackend: templates.length > 0 ? "pvc" : "ephemeral", origin: "cluster", provisionedAt: created }, fence)
      .catch((error: unknown) => {
        // A create through Berth reserved the name meanwhile: that record wins.
        if ((error as Error).name === "SandboxNameTakenError") return null;
        throw error;
      });
    if (!record) return;
    this.deps.live.put(record);
    await recordTimelineEvent(store.timeline, {
      sandboxId: record.id,
      type: "Lifecycle",
      reason: "Discovered",
      message: `Sandbox ${namespace}/${name} was found in the cluster, made outside Berth (created ${created.toISOString()}); Berth now follows its status`,
      occurredAt: now(),
      data: { sandboxUid: sandbox.metadata?.uid, createdAt: created.toISOString() },
    }, { fence, about: record });
    this.deps.reconcileLater(record.id);
  }

  private async close(record: SandboxRecord, reason: string, message: string, data: Record<string, unknown>): Promise<void> {
    const fence = this.deps.fence();
    const closed = await this.deps.store.sandboxes.markDeleted(record.id, this.deps.now(), { reason, message }, fence);
    this.deps.live.put(closed);
    await recordTimelineEvent(this.deps.store.timeline, { sandboxId: record.id, type: "Lifecycle", reason, message, occurredAt: this.deps.now(), data }, { fence, about: record });
  }
}
