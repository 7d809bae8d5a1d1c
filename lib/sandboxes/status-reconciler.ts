import type { V1PersistentVolume } from "@kubernetes/client-node";
import type { ClusterConnection } from "../kube/cluster-connection.ts";
import type { NamespaceScope } from "../kube/namespaced-watch-cache.ts";
import { sandboxResources, type SandboxResources } from "../kube/sandbox-resources.ts";
import type { WatchCacheStats } from "../kube/watch-cache.ts";
import { WorkQueue, type ReconcileResult } from "../platform/work-queue.ts";
import type { Store, WriterFence } from "../store/index.ts";
import { deriveStatus, type Observed } from "../disruption/derive-status.ts";
import { readDisruptionDetails } from "../disruption/disruption-details.ts";
import { deriveProtection, withProtection } from "../disruption/eviction-protection.ts";
import type { MaintenancePreview } from "../domain/maintenance-preview.ts";
import type { NodeView } from "../domain/node-view.ts";
import type { SandboxRecord } from "../domain/sandbox-record.ts";
import type { SandboxStatus } from "../domain/sandbox-status.ts";
import type { SandboxApiVersion } from "../domain/sandbox-api.ts";
import type { Volume } from "../domain/volume.ts";
import { recordTimelineEvent } from "../events/record-timeline-event.ts";
import { podDisruptionBudgetName } from "../render/pod-disruption-budget.ts";
import { recoverFailedPod } from "./auto-recovery.ts";
import { maintenancePreviewOf, nodesView, volumesView, type ClusterViewSources } from "./cluster-views.ts";
import type { LiveSandboxes } from "./live-sandboxes.ts";
import type { OperationsInFlight } from "./operations-in-flight.ts";
import { RecordUpkeep } from "./record-upkeep.ts";
import { sweepVolumeReaders } from "./volume-files.ts";
import { sweepVolumeMovers } from "./volume-move.ts";
import { helperPods } from "../kube/helper-pods.ts";
import { volumeResources } from "../kube/volume-resources.ts";
import { SandboxWatches } from "./sandbox-watches.ts";
import { StateVerification } from "./state-verification.ts";
import { changed, checkpointing, detailsChanged, handoutEventOf, protectionEventOf, timelineEventsOf, verdictEventOf } from "./status-changes.ts";
import { handoutOf, protectionAskedAtHandout } from "../domain/sandbox-handout.ts";
import { protectHandedOutSandbox } from "./handout-budget.ts";
import { storedDisruptionPolicy } from "../domain/stored-spec.ts";

// The reconciler, one per server process, shaped like a controller-runtime controller: watches
// (sandbox-watches.ts) turn every change into a typed key — a sandbox by id, or a Sandbox found
// in the cluster by name — on one work queue (per-key backoff on errors, requeue-after); each
// key's reconcile derives the sandbox's status from what it sees (never from what it saw before),
// stores it, and records each change on the sandbox's timeline. A periodic resync catches
// anything a dropped watch might have hidden. Keeping records and cluster in step (finds, closes,
// undoing interrupted creates) is record-upkeep.ts; the views the API serves are cluster-views.ts.
//
// Every replica runs one, for its caches and its list of live sandboxes; only the leader writes
// (`leading`), and its writes carry its term (`fence`). A follower keeps its list from the store:
// it reads a record again whenever any replica writes it.

export interface StatusReconcilerOptions {
  connection: ClusterConnection;
  store: Store;
  sandboxApiVersion: SandboxApiVersion;
  labelPrefix: string;
  /**
   * This process's running creates and deletes, shared with the lifecycle actions: the
   * reconciler leaves them alone and looks again when each settles (a create's last cluster
   * event may come before it is finished).
   */
  inFlight: OperationsInFlight;
  /** The in-memory list of live sandboxes the API serves; loaded at start and kept current here. */
  live: LiveSandboxes;
  /**
   * How old an unfinished record outside this process's creates must be before its create counts
   * as interrupted: another replica's create may still be running below that age.
   */
  interruptedAfterMs?: number;
  /** This process's running checkpoints: a Ready sandbox shows Checkpointing while one runs. */
  checkpointing?: OperationsInFlight;
  /**
   * The namespaces Berth manages: Sandboxes, their pods, claims, events and budgets are watched
   * (and Sandboxes made outside Berth adopted) only there, so no one reaches another tenant's — or
   * the system's — sandboxes through Berth. Absent: every namespace.
   */
  namespaces?: NamespaceScope;
  /** The gateway's workspace mount path, where the state marker goes for specs that name none. */
  workspaceMountPath?: string;
  resyncMs?: number;
  /** Whether this replica is the one that writes (the elected leader); always, when absent. */
  leading?: () => boolean;
  /** What its writes of status and timeline carry, for the store to refuse them from a deposed leader; nothing, when absent. */
  fence?: () => WriterFence | undefined;
  now?: () => Date;
  onError?: (error: unknown) => void;
}

/** What the queue holds: a sandbox Berth records, by id; or a Sandbox seen in the cluster, by name, to be found. */
export type ReconcileKey = { kind: "sandbox"; id: string } | { kind: "discover"; namespace: string; name: string };

const identify = (key: ReconcileKey) => (key.kind === "sandbox" ? key.id : `discover:${key.namespace}/${key.name}`);

export class StatusReconciler {
  private readonly watches: SandboxWatches;
  private readonly resources: SandboxResources;
  private readonly verification: StateVerification;
  private readonly upkeep: RecordUpkeep;
  private readonly queue: WorkQueue<ReconcileKey>;
  private resync: NodeJS.Timeout | undefined;
  private readonly stopHearing: (() => void)[] = [];

  constructor(private readonly options: StatusReconcilerOptions) {
    const { connection, onError } = options;
    this.resources = sandboxResources(connection, options.sandboxApiVersion);
    this.watches = new SandboxWatches({ connection, sandboxApiVersion: options.sandboxApiVersion, labelPrefix: options.labelPrefix, namespaces: options.namespaces, onError });
    this.verification = new StateVerification({ connection, workspaceMountPath: options.workspaceMountPath ?? "/sandbox", labelPrefix: options.labelPrefix, onResult: (id) => this.enqueue(id), now: () => this.now(), onError });
    this.upkeep = new RecordUpkeep({
      store: options.store,
      resources: this.resources,
      watches: this.watches,
      live: options.live,
      labelPrefix: options.labelPrefix,
      checkpointing: options.checkpointing,
      fence: () => this.fence(),
      now: () => this.now(),
      reconcileLater: (id) => this.enqueue(id),
    });
    this.queue = new WorkQueue({
      identify,
      reconcile: (key) => (key.kind === "sandbox" ? this.reconcile(key.id) : this.discover(key.namespace, key.name)),
      onError: (error) => onError?.(error),
    });
  }

  /** True once the watches have synced and the first resync ran. */
  started = false;

  async start(): Promise<void> {
    await this.watches.start({
      byId: (id) => this.enqueue(id),
      byName: (namespace, name) => void this.enqueueByName(namespace, name),
    });
    this.stopHearing.push(this.options.inFlight.onSettled((id) => this.enqueue(id)));
    if (this.options.checkpointing) this.stopHearing.push(this.options.checkpointing.onChange((id) => this.enqueue(id)));
    // The leader's own writes need no second look; another replica's do, on a follower.
    this.stopHearing.push(
      this.options.store.sandboxes.onChanged((id) => {
        if (this.leading()) return;
        if (id === null) void this.resyncAll().catch((error: unknown) => this.options.onError?.(error));
        else this.enqueue(id);
      }),
    );
    await this.options.live.load(this.options.store);
    await this.resyncAll();
    this.resync = setInterval(() => void this.resyncAll().catch((error: unknown) => this.options.onError?.(error)), this.options.resyncMs ?? 60_000);
    this.resync.unref?.();
    this.started = true;
  }

  stop(): void {
    clearInterval(this.resync);
    for (const stop of this.stopHearing.splice(0)) stop();
    this.queue.stop();
    this.watches.stop();
  }

  /** Every live record, and every Sandbox in the cluster (those without a record are found). */
  async resyncAll(): Promise<void> {
    if (this.leading()) {
      await this.upkeep.closeInterruptedCheckpoints();
      await this.sweepVolumeReaders().catch((error: unknown) => this.options.onError?.(error));
      await this.sweepVolumeMovers().catch((error: unknown) => this.options.onError?.(error));
    }
    // Ids, not records: each reconcile takes the record the live list holds. At 10,000
    // sandboxes, reading the records was 10,000 rows read and parsed a minute for nothing.
    for (const id of await this.options.store.sandboxes.liveIds()) this.enqueue(id);
    // A Sandbox the live list follows has its record: finding it would ask the store for nothing.
    for (const sandbox of this.watches.sandboxes.list()) {
      const { namespace, name } = sandbox.metadata!;
      if (!this.options.live.idOf(namespace!, name!)) this.queue.add({ kind: "discover", namespace: namespace!, name: name! });
    }
  }

  /** Helper pods that read free claims, once their time is up: whoever started them, whatever stopped half-way. */
  sweepVolumeReaders(): Promise<string[]> {
    return sweepVolumeReaders({ pods: helperPods(this.options.connection), audit: this.options.store.audit, labelPrefix: this.options.labelPrefix, now: () => this.now() });
  }

  /** Helper pods that moved a workspace to another class, once they end or overrun: their end recorded, a failed copy's new claim deleted. */
  sweepVolumeMovers(): Promise<string[]> {
    const { connection, sandboxApiVersion, store, labelPrefix } = this.options;
    return sweepVolumeMovers({ pods: helperPods(connection), volumes: volumeResources(connection, sandboxApiVersion), audit: store.audit, labelPrefix, now: () => this.now() });
  }

  private get views(): ClusterViewSources {
    const { live, store, connection, labelPrefix } = this.options;
    return { watches: this.watches, live, store, connection, labelPrefix };
  }

  /** Every claim Berth knows, from the watches, with the sandbox each belongs to. */
  volumes(): Promise<Volume[]> {
    return volumesView(this.views);
  }

  /** Every PersistentVolume, as the watch has it (the Released ones are the clean-up view's). */
  persistentVolumes(): V1PersistentVolume[] {
    return this.watches.persistentVolumes.list();
  }

  /** Whether the namespace has a claim of that name, Berth's or not. */
  hasClaim(namespace: string, name: string): boolean {
    return this.watches.claims.get(namespace, name) !== undefined;
  }

  /** Every node with the sandboxes on it. */
  nodeViews(): NodeView[] {
    return nodesView(this.views);
  }

  /** What draining the node would do to each pod on it; null for a node the cluster does not have. */
  maintenancePreview(nodeName: string): Promise<MaintenancePreview | null> {
    return maintenancePreviewOf(this.views, nodeName);
  }

  /** What each watch went through: lists, watches, re-lists after 410 Gone, failures. */
  watchStats(): Record<"sandboxes" | "pods" | "claims" | "podEvents" | "claimEvents" | "persistentVolumes", WatchCacheStats> {
    return this.watches.stats();
  }

  /** Resolves once nothing is queued or being reconciled (tests and benchmarks wait on it). */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  enqueue(id: string): void {
    this.queue.add({ kind: "sandbox", id });
  }

  /**
   * The live record of that name, or — when there is none — a Sandbox to be found. The live list
   * knows most names without asking the store: every pod and claim event of a drain comes here.
   */
  private async enqueueByName(namespace: string | undefined, name: string | undefined): Promise<void> {
    if (!namespace || !name) return;
    const known = this.options.live.idOf(namespace, name);
    if (known) return this.enqueue(known);
    const record = await this.options.store.sandboxes.findLiveSandbox(namespace, name).catch(() => null);
    if (record) this.enqueue(record.id);
    else if (this.watches.sandboxes.get(namespace, name)) this.queue.add({ kind: "discover", namespace, name });
  }

  private now(): Date {
    return (this.options.now ?? (() => new Date()))();
  }

  private leading(): boolean {
    return this.options.leading?.() ?? true;
  }

  private fence(): WriterFence | undefined {
    return this.options.fence?.();
  }

  /** Called when this replica starts or stops leading: a new leader looks at everything once. */
  leadershipChanged(): void {
    if (this.started && this.leading()) void this.resyncAll().catch((error: unknown) => this.options.onError?.(error));
  }

  private async discover(namespace: string, name: string): Promise<void> {
    if (this.leading()) await this.upkeep.discover(namespace, name);
  }

  /**
   * The status the cluster shows. A disruption seen for the first time asks the store once for
   * the last successful checkpoint, so its record says whether the pod's work was saved first.
   */
  private async derive(observed: Observed, record: SandboxRecord): Promise<SandboxStatus> {
    const derived = deriveStatus(observed, record, this.now());
    const seen = readDisruptionDetails(derived.details).disruption;
    if (!seen || seen.checkpointTaken || readDisruptionDetails(record.details).disruption?.podUid === seen.podUid) return derived;
    const lastCheckpoint = await this.options.store.checkpoints.lastSucceeded(record.id);
    return lastCheckpoint?.podUid === seen.podUid ? deriveStatus({ ...observed, lastCheckpoint }, record, this.now()) : derived;
  }

  /** Observe, derive, store, and tell the timeline what changed. */
  async reconcile(id: string): Promise<ReconcileResult | void> {
    const { store, live } = this.options;
    // A storm reconciles each sandbox many times: what the live list can vouch for is not read again.
    const held = live.current(id);
    const record = held ?? (await store.sandboxes.getSandbox(id));
    if (!held) {
      if (record) live.put(record);
      else live.remove(id);
    }
    // A follower's part ends here: what follows writes.
    if (!record || !this.leading() || (await this.options.inFlight.anywhere(id))) return;
    if (record.deletedAt) {
      await this.upkeep.removeLateSandbox(record);
      return;
    }
    if (!record.provisionedAt) {
      // Another replica's create may still be running below that age: look again when it is past.
      const age = this.now().getTime() - record.createdAt.getTime();
      const interruptedAfterMs = this.options.interruptedAfterMs ?? 120_000;
      if (age < interruptedAfterMs) return { requeueAfterMs: interruptedAfterMs - age };
      await this.upkeep.undoInterruptedCreate(record);
      return;
    }
    const observed = this.watches.observe(record);
    // The cache may lag behind a Sandbox just made: only the API server may say it is gone. If
    // it is there, the watch brings it soon, and the sandbox is looked at again then.
    if (!observed.sandbox) {
      if (!(await this.resources.readSandbox(record.namespace, record.name))) await this.upkeep.closeDeletedOutsideBerth(record);
      return;
    }
    const sandbox = this.watches.sandboxes.get(record.namespace, record.name);
    const budget = this.watches.budgets.get(record.namespace, podDisruptionBudgetName(record.name)) ?? null;
    await protectHandedOutSandbox({ resources: this.resources, store, labelPrefix: this.options.labelPrefix, now: () => this.now(), fence: this.fence() }, record, sandbox, budget !== null);
    const protection = deriveProtection({
      wanted: storedDisruptionPolicy(record.spec).evictionProtection || protectionAskedAtHandout(sandbox, this.options.labelPrefix),
      budget,
      pod: observed.pod,
      node: observed.node ?? null,
    });
    const protectedStatus = withProtection(this.verification.withResults(await this.derive(observed, record)), protection, record.conditions, this.now());
    const derived = { ...protectedStatus, details: { ...protectedStatus.details, handout: handoutOf(sandbox) } };
    const next = (await this.options.checkpointing?.anywhere(id)) ? checkpointing(derived) : derived;
    const fence = this.fence();
    if (detailsChanged(record, next) || changed(record, next)) {
      const saved = await store.sandboxes.saveStatus(id, next, fence);
      live.put(saved);
      this.verification.stored(saved);
      if (changed(record, next)) {
        for (const event of timelineEventsOf(record, next, this.now())) await recordTimelineEvent(store.timeline, event, { fence, about: record });
      }
      const verdict = verdictEventOf(record, next, this.now());
      if (verdict) await recordTimelineEvent(store.timeline, verdict, { fence, about: record });
      const handout = handoutEventOf(record, next, this.now());
      if (handout) await recordTimelineEvent(store.timeline, handout, { fence, about: record });
      const wasBlocked = record.details.protection?.drainBlocked ?? false;
      if (wasBlocked !== protection.drainBlocked) await recordTimelineEvent(store.timeline, protectionEventOf(record, protection, this.now()), { fence, about: record });
    }
    const pod = this.watches.pods.get(record.namespace, record.name) ?? null;
    this.verification.follow(record, next, pod);
    await recoverFailedPod({ resources: this.resources, store, now: () => this.now(), fence }, record, next, pod);
  }
}
