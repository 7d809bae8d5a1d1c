import { BERTH_ACTOR } from "../domain/audit.ts";
import type { CoreV1Event, KubernetesObject, V1Node, V1PersistentVolume, V1PersistentVolumeClaim, V1Pod, V1PodDisruptionBudget } from "@kubernetes/client-node";
import { recordTimelineEvent } from "../events/record-timeline-event.ts";
import { deriveStatus, type Observed, type ObservedSandbox } from "../disruption/derive-status.ts";
import { eventTime } from "./event-time.ts";
import { berthLabelKeys, MANAGED_BY_BERTH } from "../domain/labels.ts";
import { deriveProtection, withProtection, type Protection } from "../disruption/eviction-protection.ts";
import { podDisruptionBudgetName } from "../render/pod-disruption-budget.ts";
import { previewMaintenance } from "../disruption/maintenance-preview.ts";
import type { MaintenancePreview } from "../domain/maintenance-preview.ts";
import { nodeResources } from "../kube/node-resources.ts";
import type { NodeView } from "../domain/node-view.ts";
import { describeNodes } from "./describe-nodes.ts";
import { SANDBOX_NAME_HASH_LABEL, type SandboxApiVersion } from "../domain/sandbox-api.ts";
import type { SandboxRecord } from "../domain/sandbox-record.ts";
import type { ClusterConnection } from "../kube/cluster-connection.ts";
import { sandboxResources, type SandboxResources, type StoredSandbox } from "../kube/sandbox-resources.ts";
import { namespacedCache, WatchedNamespaces, type NamespaceScope, type ObjectCache } from "../kube/namespaced-watch-cache.ts";
import { WatchCache, type WatchCacheOptions, type WatchCacheStats } from "../kube/watch-cache.ts";
import type { Store, WriterFence } from "../store/index.ts";
import type { Volume } from "../domain/volume.ts";
import { describeSweep, sweepClaims } from "./claim-sweep.ts";
import { describeVolumes, type SandboxRef } from "./describe-volumes.ts";
import { recoverFailedPod } from "./auto-recovery.ts";
import { StateVerification } from "./state-verification.ts";
import { changed, checkpointing, detailsChanged, protectionEventOf, timelineEventsOf, verdictEventOf } from "./status-changes.ts";
import { readDisruptionDetails } from "../disruption/disruption-details.ts";
import type { LiveSandboxes } from "./live-sandboxes.ts";
import type { OperationsInFlight } from "./operations-in-flight.ts";

// The reconciler, one per server process: it watches Sandboxes, pods, claims and events, and for
// each sandbox derives its status from what it sees (never from what it saw before), stores it,
// and records each change of phase on the sandbox's timeline. A change only enqueues the
// sandbox's id; a periodic resync catches anything a dropped watch might have hidden.
//
// It also keeps the store and the cluster in step, at start-up and after: a Sandbox found in the
// cluster without a record (made outside Berth, or while Berth was down) is recorded as found; a
// record whose Sandbox is gone (deleted outside Berth) is closed; a record whose create was
// interrupted (the console stopped half-way) has what that create made removed.
//
// Every replica runs one, for its caches and its list of live sandboxes; only the leader writes
// (`leading`). A follower keeps its list from the store: it reads a record again whenever any
// replica writes it.

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

type SandboxObject = StoredSandbox & KubernetesObject;

const DISCOVER = "discover:";

export class StatusReconciler {
  private readonly sandboxes: ObjectCache<SandboxObject>;
  private readonly pods: ObjectCache<V1Pod>;
  private readonly claims: ObjectCache<V1PersistentVolumeClaim>;
  private readonly podEvents: ObjectCache<CoreV1Event>;
  private readonly claimEvents: ObjectCache<CoreV1Event>;
  private readonly persistentVolumes: WatchCache<V1PersistentVolume>;
  private readonly resources: SandboxResources;
  private readonly nodes: WatchCache<V1Node>;
  private readonly budgets: ObjectCache<V1PodDisruptionBudget>;
  private readonly verification: StateVerification;
  private readonly managed: WatchedNamespaces | null;
  private readonly queue = new Set<string>();
  private draining = false;
  private resync: NodeJS.Timeout | undefined;
  private stopHearingSettled: (() => void) | undefined;
  private stopHearingCheckpoints: (() => void) | undefined;
  private stopHearingRecords: (() => void) | undefined;
  private readonly keys: ReturnType<typeof berthLabelKeys>;

  constructor(private readonly options: StatusReconcilerOptions) {
    const { connection, onError } = options;
    this.keys = berthLabelKeys(options.labelPrefix);
    this.resources = sandboxResources(connection, options.sandboxApiVersion);
    const scope = options.namespaces ?? { kind: "all" };
    this.managed = scope.kind === "all" ? null : new WatchedNamespaces(connection, scope, onError);
    const inScope = <T extends KubernetesObject>(cache: Omit<WatchCacheOptions, "namespace">) => namespacedCache<T>(connection, cache, this.managed);
    // Every Sandbox in scope, not only Berth's: those made outside Berth are shown too.
    this.sandboxes = inScope({ apiVersion: `agents.x-k8s.io/${options.sandboxApiVersion}`, kind: "Sandbox", path: `/apis/agents.x-k8s.io/${options.sandboxApiVersion}/sandboxes`, onError });
    this.pods = inScope({ apiVersion: "v1", kind: "Pod", path: "/api/v1/pods", labelSelector: SANDBOX_NAME_HASH_LABEL, onError });
    // Template claims carry no Berth label (the controller makes them): watch every claim.
    this.claims = inScope({ apiVersion: "v1", kind: "PersistentVolumeClaim", path: "/api/v1/persistentvolumeclaims", onError });
    // Only the events a status is derived from: about pods and claims, not nodes, leases, ….
    const events = (kind: string) => inScope<CoreV1Event>({ apiVersion: "v1", kind: "Event", path: "/api/v1/events", fieldSelector: `involvedObject.kind=${kind}`, onError });
    this.podEvents = events("Pod");
    this.claimEvents = events("PersistentVolumeClaim");
    // Berth's budgets: whether a sandbox is protected, and whether a drain waits on it.
    this.budgets = inScope({ apiVersion: "policy/v1", kind: "PodDisruptionBudget", path: "/apis/policy/v1/poddisruptionbudgets", labelSelector: `${this.keys.managedBy}=${MANAGED_BY_BERTH}`, onError });
    // A pod's node tells a drain (cordoned) and a node loss (NotReady, unreachable) apart.
    this.nodes = new WatchCache(connection, { apiVersion: "v1", kind: "Node", path: "/api/v1/nodes", onError });
    this.nodes.subscribe(({ object, previous }) => {
      // Heartbeats change a node every few seconds; only a change a sandbox's status reads counts.
      if (previous && nodeState(previous) === nodeState(object)) return;
      for (const pod of this.pods.list()) if (pod.spec?.nodeName === object.metadata?.name) void this.enqueueByName(pod.metadata?.namespace, pod.metadata?.name);
    });
    this.verification = new StateVerification({ connection, workspaceMountPath: options.workspaceMountPath ?? "/sandbox", onResult: (id) => this.enqueue(id), now: () => this.now(), onError });
    // For the volumes view: which node a node-local volume pins its claim to.
    this.persistentVolumes = new WatchCache(connection, { apiVersion: "v1", kind: "PersistentVolume", path: "/api/v1/persistentvolumes", onError });
  }

  private get caches() {
    return [this.sandboxes, this.pods, this.claims, this.podEvents, this.claimEvents, this.persistentVolumes, this.nodes, this.budgets];
  }

  /** True once the watches have synced and the first resync ran. */
  started = false;

  async start(): Promise<void> {
    await Promise.all(this.caches.map((cache) => cache.start()));
    this.sandboxes.subscribe(({ object }) => {
      if (!this.enqueueByLabel(object)) void this.enqueueByName(object.metadata?.namespace, object.metadata?.name);
    });
    this.budgets.subscribe(({ object }) => this.enqueueByLabel(object));
    this.pods.subscribe(({ object }) => {
      if (!this.enqueueByLabel(object)) void this.enqueueByName(object.metadata?.namespace, object.metadata?.name);
    });
    this.claims.subscribe(({ object }) => {
      if (!this.enqueueByLabel(object)) void this.enqueueByName(object.metadata?.namespace, claimOwnerName(object));
    });
    this.podEvents.subscribe(({ object }) => void this.enqueueByName(object.involvedObject?.namespace, object.involvedObject?.name));
    this.claimEvents.subscribe(({ object }) => void this.enqueueByName(object.involvedObject?.namespace, claimOwnerName({ metadata: { name: object.involvedObject?.name } })));
    this.stopHearingSettled = this.options.inFlight.onSettled((id) => this.enqueue(id));
    this.stopHearingCheckpoints = this.options.checkpointing?.onChange((id) => this.enqueue(id));
    // The leader's own writes need no second look; another replica's do, on a follower.
    this.stopHearingRecords = this.options.store.sandboxes.onChanged((id) => {
      if (this.leading()) return;
      if (id === null) void this.resyncAll().catch((error: unknown) => this.options.onError?.(error));
      else this.enqueue(id);
    });
    await this.options.live.load(this.options.store);
    await this.resyncAll();
    this.resync = setInterval(() => void this.resyncAll().catch((error: unknown) => this.options.onError?.(error)), this.options.resyncMs ?? 60_000);
    this.resync.unref?.();
    this.started = true;
  }

  stop(): void {
    clearInterval(this.resync);
    this.stopHearingSettled?.();
    this.stopHearingCheckpoints?.();
    this.stopHearingRecords?.();
    for (const cache of this.caches) cache.stop();
    this.managed?.stop();
  }

  /** Every live record, and every Sandbox in the cluster (those without a record are found). */
  async resyncAll(): Promise<void> {
    if (this.leading()) await this.closeInterruptedCheckpoints();
    for (const record of await this.options.store.sandboxes.listAllLive()) this.enqueue(record.id);
    for (const sandbox of this.sandboxes.list()) this.enqueue(`${DISCOVER}${sandbox.metadata!.namespace}/${sandbox.metadata!.name}`);
  }

  /** Every claim Berth knows, from the watches, with the sandbox each belongs to. */
  async volumes(): Promise<Volume[]> {
    const claims = this.claims.list();
    const byId = new Map<string, SandboxRef | null>();
    for (const id of new Set(claims.flatMap((claim) => claim.metadata?.labels?.[this.keys.sandboxId] ?? []))) {
      const record = await this.options.store.sandboxes.getSandbox(id);
      byId.set(id, record ? { id: record.id, name: record.name, deleted: record.deletedAt !== null } : null);
    }
    const byName = new Map<string, SandboxRef>();
    for (const record of this.options.live.all()) byName.set(`${record.namespace}/${record.name}`, { id: record.id, name: record.name, deleted: false });
    return describeVolumes({
      claims,
      pods: this.pods.list(),
      persistentVolumes: this.persistentVolumes.list(),
      claimEvents: this.claimEvents.list(),
      labelPrefix: this.options.labelPrefix,
      sandboxById: (id) => byId.get(id) ?? null,
      liveSandboxByName: (namespace, name) => byName.get(`${namespace}/${name}`) ?? null,
    });
  }

  /** Every node with the sandboxes on it. */
  nodeViews(): NodeView[] {
    return describeNodes(this.nodes.list(), this.options.live.all());
  }

  /** What draining the node would do to each pod on it; null for a node the cluster does not have. */
  async maintenancePreview(nodeName: string): Promise<MaintenancePreview | null> {
    const node = this.nodes.get(undefined, nodeName);
    if (!node) return null;
    const byName = new Map(this.options.live.all().map((record) => [`${record.namespace}/${record.name}`, record]));
    const budgets = this.budgets;
    return previewMaintenance({
      node,
      nodes: this.nodes.list(),
      pods: await nodeResources(this.options.connection).listPodsOnNode(nodeName),
      claims: this.claims.list(),
      persistentVolumes: this.persistentVolumes.list(),
      sandboxOf: (pod) => {
        const record = pod.metadata?.labels?.[SANDBOX_NAME_HASH_LABEL] !== undefined ? byName.get(`${pod.metadata?.namespace}/${pod.metadata?.name}`) : undefined;
        if (!record) return null;
        return { id: record.id, name: record.name, workspaceBackend: record.workspaceBackend, protected: budgets.get(record.namespace, podDisruptionBudgetName(record.name)) !== undefined };
      },
    });
  }

  /** What each watch went through: lists, watches, re-lists after 410 Gone, failures. */
  watchStats(): Record<"sandboxes" | "pods" | "claims" | "podEvents" | "claimEvents" | "persistentVolumes", WatchCacheStats> {
    return { sandboxes: this.sandboxes.stats, pods: this.pods.stats, claims: this.claims.stats, podEvents: this.podEvents.stats, claimEvents: this.claimEvents.stats, persistentVolumes: this.persistentVolumes.stats };
  }

  /** Resolves once nothing is queued (tests and benchmarks wait on it). */
  async idle(): Promise<void> {
    while (this.draining || this.queue.size > 0) await new Promise((resolve) => setTimeout(resolve, 5));
  }

  /** Enqueues the sandbox an object's Berth label names; false when it has none. */
  private enqueueByLabel(object: KubernetesObject): boolean {
    const id = object.metadata?.labels?.[this.keys.sandboxId];
    if (id) this.enqueue(id);
    return Boolean(id);
  }

  /** The live record of that name, or — when there is none — a Sandbox to be found. */
  private async enqueueByName(namespace: string | undefined, name: string | undefined): Promise<void> {
    if (!namespace || !name) return;
    const record = await this.options.store.sandboxes.findLiveSandbox(namespace, name).catch(() => null);
    if (record) this.enqueue(record.id);
    else if (this.sandboxes.get(namespace, name)) this.enqueue(`${DISCOVER}${namespace}/${name}`);
  }

  enqueue(key: string): void {
    this.queue.add(key);
    if (!this.draining) void this.drain();
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.queue.size > 0) {
        const key = this.queue.values().next().value as string;
        this.queue.delete(key);
        try {
          if (key.startsWith(DISCOVER)) await this.discover(key.slice(DISCOVER.length));
          else await this.reconcile(key);
        } catch (error) {
          this.options.onError?.(error);
        }
      }
    } finally {
      this.draining = false;
    }
  }

  private now(): Date {
    return (this.options.now ?? (() => new Date()))();
  }

  private leading(): boolean {
    return this.options.leading?.() ?? true;
  }

  /** Called when this replica starts or stops leading: a new leader looks at everything once. */
  leadershipChanged(): void {
    if (this.started && this.leading()) void this.resyncAll().catch((error: unknown) => this.options.onError?.(error));
  }

  /** Observe, derive, store, and tell the timeline what changed. */
  async reconcile(id: string): Promise<void> {
    const record = await this.options.store.sandboxes.getSandbox(id);
    if (record) this.options.live.put(record);
    else this.options.live.remove(id);
    // A follower's part ends here: what follows writes.
    if (!record || !this.leading() || (await this.options.inFlight.anywhere(id))) return;
    if (record.deletedAt) {
      await this.removeLateSandbox(record);
      return;
    }
    if (!record.provisionedAt) {
      if (this.now().getTime() - record.createdAt.getTime() < (this.options.interruptedAfterMs ?? 120_000)) return;
      await this.undoInterruptedCreate(record);
      return;
    }
    const observed = this.observe(record);
    // The cache may lag behind a Sandbox just made: only the API server may say it is gone. If
    // it is there, the watch brings it soon, and the sandbox is looked at again then.
    if (!observed.sandbox) {
      if (!(await this.resources.readSandbox(record.namespace, record.name))) await this.closeDeletedOutsideBerth(record);
      return;
    }
    const protection = deriveProtection({
      wanted: (record.spec.disruptionPolicy as { evictionProtection?: boolean } | undefined)?.evictionProtection === true,
      budget: this.budgets.get(record.namespace, podDisruptionBudgetName(record.name)) ?? null,
      pod: observed.pod,
      node: observed.node ?? null,
    });
    const derived = withProtection(this.verification.withResults(deriveStatus(observed, record, this.now())), protection, record.conditions, this.now());
    const next = (await this.options.checkpointing?.anywhere(id)) ? checkpointing(derived) : derived;
    if (detailsChanged(record, next) || changed(record, next)) {
      const fence = this.options.fence?.();
      const saved = await this.options.store.sandboxes.saveStatus(id, next, fence);
      this.options.live.put(saved);
      this.verification.stored(saved);
      if (changed(record, next)) {
        for (const event of timelineEventsOf(record, next, this.now())) await recordTimelineEvent(this.options.store.timeline, event, fence);
      }
      const verdict = verdictEventOf(record, next, this.now());
      if (verdict) await recordTimelineEvent(this.options.store.timeline, verdict, fence);
      const wasBlocked = (record.details.protection as Protection | undefined)?.drainBlocked ?? false;
      if (wasBlocked !== protection.drainBlocked) await recordTimelineEvent(this.options.store.timeline, protectionEventOf(record, protection, this.now()), fence);
    }
    const pod = this.pods.get(record.namespace, record.name) ?? null;
    this.verification.follow(record, next, pod);
    await recoverFailedPod({ resources: this.resources, store: this.options.store, now: () => this.now() }, record, next, pod);
  }

  /**
   * Checkpoints left Running that no replica runs (the one that ran them stopped): close them,
   * saying so. At start, and at each resync, since a replica can stop at any time.
   */
  private async closeInterruptedCheckpoints(): Promise<void> {
    const stillRunning = (await this.options.checkpointing?.runningAnywhere()) ?? new Set<string>();
    for (const checkpoint of await this.options.store.checkpoints.failInterrupted(this.now(), stillRunning)) {
      await recordTimelineEvent(this.options.store.timeline, {
        sandboxId: checkpoint.sandboxId,
        type: "Checkpoint",
        reason: "CheckpointInterrupted",
        message: "The console stopped while this checkpoint was running; it is recorded as Failed. Run it again if the sandbox still needs one.",
        occurredAt: this.now(),
        data: { checkpointId: checkpoint.id, trigger: checkpoint.trigger },
      });
    }
  }

  /**
   * The console stopped while creating this sandbox, so nobody was told it exists: remove what
   * that create made (its Sandbox and the claims it made) and close the record, saying so.
   */
  private async undoInterruptedCreate(record: SandboxRecord): Promise<void> {
    const live = await this.resources.readSandbox(record.namespace, record.name);
    const ours = live !== null && live.metadata.labels?.[this.keys.sandboxId] === record.id;
    if (ours) await this.resources.deleteSandbox(record.namespace, record.name);
    const swept = await sweepClaims(this.resources, this.options.labelPrefix, record, "allMadeForIt");
    const message = `The create of ${record.namespace}/${record.name} was interrupted (the console stopped before it finished); what it made was removed: Sandbox ${ours ? record.name : "none"}; ${describeSweep(swept)}`;
    await this.close(record, "CreateInterrupted", message, { sandboxRemoved: ours, ...swept });
    await this.options.store.audit.recordChange({ actor: BERTH_ACTOR, action: "sandbox.create", targetKind: "Sandbox", targetId: record.id, outcome: "Failed", details: { namespace: record.namespace, name: record.name, error: "interrupted", ...swept } });
  }

  /**
   * An interrupted create's Sandbox request can land after the undo (the API server finishes a
   * write whose client is gone): such a Sandbox belongs to nobody and is removed as well.
   */
  private async removeLateSandbox(record: SandboxRecord): Promise<void> {
    if (record.reason !== "CreateInterrupted") return;
    const late = this.sandboxes.get(record.namespace, record.name);
    if (!late || late.metadata?.deletionTimestamp || late.metadata?.labels?.[this.keys.sandboxId] !== record.id) return;
    await this.resources.deleteSandbox(record.namespace, record.name);
    const swept = await sweepClaims(this.resources, this.options.labelPrefix, record, "allMadeForIt");
    await recordTimelineEvent(this.options.store.timeline, {
      sandboxId: record.id,
      type: "Lifecycle",
      reason: "LateSandboxRemoved",
      message: `The interrupted create's Sandbox request reached the cluster after the undo; that Sandbox was removed too; ${describeSweep(swept)}`,
      occurredAt: this.now(),
      data: { sandboxUid: late.metadata?.uid, ...swept },
    });
  }

  /** Someone deleted the Sandbox behind Berth's back: sweep its `delete` claims as Berth would have. */
  private async closeDeletedOutsideBerth(record: SandboxRecord): Promise<void> {
    const swept = await sweepClaims(this.resources, this.options.labelPrefix, record, "ownedForDeletion");
    await this.close(record, "DeletedOutsideBerth", `The Sandbox was deleted outside Berth (kubectl, another gateway, or its namespace); ${describeSweep(swept)}`, { ...swept });
  }

  private async close(record: SandboxRecord, reason: string, message: string, data: Record<string, unknown>): Promise<void> {
    const closed = await this.options.store.sandboxes.markDeleted(record.id, this.now(), { reason, message });
    this.options.live.put(closed);
    await recordTimelineEvent(this.options.store.timeline, { sandboxId: record.id, type: "Lifecycle", reason, message, occurredAt: this.now(), data });
  }

  /** A Sandbox with no live record: made outside Berth, or while Berth was down. Record it as found. */
  private async discover(key: string): Promise<void> {
    if (!this.leading()) return;
    const [namespace, name] = key.split("/") as [string, string];
    const sandbox = this.sandboxes.get(namespace, name);
    if (!sandbox || sandbox.metadata?.deletionTimestamp) return;
    if (await this.options.store.sandboxes.findLiveSandbox(namespace, name)) return;
    // Labelled for a record that is closed: Berth deleted it and the cache lags, or it is an
    // interrupted create's late arrival. Either way it is that record's business, not a find.
    const labelledId = sandbox.metadata?.labels?.[this.keys.sandboxId];
    if (labelledId && (await this.options.store.sandboxes.getSandbox(labelledId))) {
      this.enqueue(labelledId);
      return;
    }
    const templates = (sandbox.spec?.volumeClaimTemplates as unknown[] | undefined) ?? [];
    const created = sandbox.metadata?.creationTimestamp ? new Date(sandbox.metadata.creationTimestamp as unknown as string) : this.now();
    const record = await this.options.store.sandboxes
      .recordSandbox({ name, namespace, spec: { name, namespace }, workspaceBackend: templates.length > 0 ? "pvc" : "ephemeral", origin: "cluster", provisionedAt: created })
      .catch((error: unknown) => {
        // A create through Berth reserved the name meanwhile: that record wins.
        if ((error as Error).name === "SandboxNameTakenError") return null;
        throw error;
      });
    if (!record) return;
    this.options.live.put(record);
    await recordTimelineEvent(this.options.store.timeline, {
      sandboxId: record.id,
      type: "Lifecycle",
      reason: "Discovered",
      message: `Sandbox ${namespace}/${name} was found in the cluster, made outside Berth (created ${created.toISOString()}); Berth now follows its status`,
      occurredAt: this.now(),
      data: { sandboxUid: sandbox.metadata?.uid, createdAt: created.toISOString() },
    });
    this.enqueue(record.id);
  }

  private observe(record: SandboxRecord): Observed {
    const sandbox = this.sandboxes.get(record.namespace, record.name);
    const pod = this.pods.get(record.namespace, record.name) ?? null;
    const claimNames = new Set([
      ...(pod?.spec?.volumes ?? []).flatMap((volume) => (volume.persistentVolumeClaim ? [volume.persistentVolumeClaim.claimName] : [])),
      ...this.claims.list().filter((claim) => claim.metadata?.labels?.[this.keys.sandboxId] === record.id).map((claim) => claim.metadata!.name!),
      ...((sandbox?.spec?.volumeClaimTemplates as { metadata?: { name?: string } }[] | undefined) ?? []).map((template) => `${template.metadata?.name}-${record.name}`),
    ]);
    const claims = [...claimNames].flatMap((name) => {
      const claim = this.claims.get(record.namespace, name);
      return claim ? [claim] : [];
    });
    const involved = new Set([record.name, ...claimNames]);
    const events = [...this.podEvents.list(), ...this.claimEvents.list()]
      .filter((event) => event.involvedObject?.namespace === record.namespace && involved.has(event.involvedObject?.name ?? ""))
      .sort((a, b) => eventTime(a) - eventTime(b));
    // The node the pod is on — or, with the pod gone, the one it was on.
    const nodeName = pod?.spec?.nodeName ?? record.nodeName ?? readDisruptionDetails(record.details).disruption?.nodeName;
    const node = nodeName ? (this.nodes.get(undefined, nodeName) ?? null) : null;
    return { sandbox: sandbox ? observedSandbox(sandbox) : null, pod, node, claims, events, deleted: false };
  }
}

function observedSandbox(sandbox: SandboxObject): ObservedSandbox {
  const spec = sandbox.spec ?? {};
  const running = "replicas" in spec ? spec.replicas !== 0 : spec.operatingMode !== "Suspended";
  return { metadata: sandbox.metadata, running };
}

/** The sandbox a template workspace claim (named workspace-<sandbox>) belongs to. */
function claimOwnerName(claim: { metadata?: { name?: string } }): string | undefined {
  const name = claim.metadata?.name;
  return name?.startsWith("workspace-") ? name.slice("workspace-".length) : undefined;
}

/** What of a node a sandbox's status depends on: schedulable, Ready, tainted. */
function nodeState(node: V1Node): string {
  const ready = node.status?.conditions?.find((condition) => condition.type === "Ready")?.status;
  return JSON.stringify([node.spec?.unschedulable ?? false, ready, (node.spec?.taints ?? []).map((taint) => `${taint.key}:${taint.effect}`).sort()]);
}
