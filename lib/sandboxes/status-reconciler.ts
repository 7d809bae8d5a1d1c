import type { CoreV1Event, KubernetesObject, V1PersistentVolumeClaim, V1Pod } from "@kubernetes/client-node";
import { recordTimelineEvent } from "../events/record-timeline-event.ts";
import { deriveStatus, type Observed, type ObservedSandbox } from "../disruption/derive-status.ts";
import { berthLabelKeys, MANAGED_BY_BERTH } from "../domain/labels.ts";
import type { SandboxApiVersion } from "../domain/sandbox-api.ts";
import type { SandboxRecord } from "../domain/sandbox-record.ts";
import type { SandboxStatus } from "../domain/sandbox-status.ts";
import type { ClusterConnection } from "../kube/cluster-connection.ts";
import type { StoredSandbox } from "../kube/sandbox-resources.ts";
import { WatchCache } from "../kube/watch-cache.ts";
import type { Store } from "../store/index.ts";

// The reconciler, one per server process: it watches Sandboxes, pods, claims and events, and for
// each sandbox Berth knows derives its status from what it sees (never from what it saw before),
// stores it, and records each change of phase on the sandbox's timeline. A change only enqueues
// the sandbox's id; a periodic resync catches anything a dropped watch might have hidden.

export interface StatusReconcilerOptions {
  connection: ClusterConnection;
  store: Store;
  sandboxApiVersion: SandboxApiVersion;
  labelPrefix: string;
  resyncMs?: number;
  now?: () => Date;
  onError?: (error: unknown) => void;
}

type SandboxObject = StoredSandbox & KubernetesObject;

export class StatusReconciler {
  private readonly sandboxes: WatchCache<SandboxObject>;
  private readonly pods: WatchCache<V1Pod>;
  private readonly claims: WatchCache<V1PersistentVolumeClaim>;
  private readonly events: WatchCache<CoreV1Event>;
  private readonly queue = new Set<string>();
  private draining = false;
  private resync: NodeJS.Timeout | undefined;
  private readonly keys: ReturnType<typeof berthLabelKeys>;

  constructor(private readonly options: StatusReconcilerOptions) {
    const { connection } = options;
    this.keys = berthLabelKeys(options.labelPrefix);
    const managed = `${this.keys.managedBy}=${MANAGED_BY_BERTH}`;
    const onError = options.onError;
    this.sandboxes = new WatchCache(connection, { apiVersion: `agents.x-k8s.io/${options.sandboxApiVersion}`, kind: "Sandbox", path: `/apis/agents.x-k8s.io/${options.sandboxApiVersion}/sandboxes`, labelSelector: managed, onError });
    this.pods = new WatchCache(connection, { apiVersion: "v1", kind: "Pod", path: "/api/v1/pods", labelSelector: managed, onError });
    // Template claims carry no Berth label (the controller makes them): watch every claim.
    this.claims = new WatchCache(connection, { apiVersion: "v1", kind: "PersistentVolumeClaim", path: "/api/v1/persistentvolumeclaims", onError });
    this.events = new WatchCache(connection, { apiVersion: "v1", kind: "Event", path: "/api/v1/events", onError });
  }

  async start(): Promise<void> {
    await Promise.all([this.sandboxes.start(), this.pods.start(), this.claims.start(), this.events.start()]);
    this.sandboxes.subscribe(({ object }) => this.enqueueByLabel(object));
    this.pods.subscribe(({ object }) => this.enqueueByLabel(object));
    this.claims.subscribe(({ object }) => {
      if (!this.enqueueByLabel(object)) void this.enqueueByName(object.metadata?.namespace, claimOwnerName(object));
    });
    this.events.subscribe(({ object }) => {
      const involved = object.involvedObject;
      if (involved?.kind === "Pod") void this.enqueueByName(involved.namespace, involved.name);
      if (involved?.kind === "PersistentVolumeClaim") void this.enqueueByName(involved.namespace, claimOwnerName({ metadata: { name: involved.name } }));
    });
    await this.resyncAll();
    this.resync = setInterval(() => void this.resyncAll(), this.options.resyncMs ?? 60_000);
    this.resync.unref?.();
  }

  stop(): void {
    clearInterval(this.resync);
    for (const cache of [this.sandboxes, this.pods, this.claims, this.events]) cache.stop();
  }

  /** Every live sandbox, also those created or deleted while Berth was down. */
  async resyncAll(): Promise<void> {
    let cursor: string | undefined;
    do {
      const page = await this.options.store.sandboxes.listSandboxes({ limit: 500, cursor });
      for (const record of page.items) this.enqueue(record.id);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }

  /** Enqueues the sandbox an object's Berth label names; false when it has none. */
  private enqueueByLabel(object: KubernetesObject): boolean {
    const id = object.metadata?.labels?.[this.keys.sandboxId];
    if (id) this.enqueue(id);
    return Boolean(id);
  }

  private async enqueueByName(namespace: string | undefined, name: string | undefined): Promise<void> {
    if (!namespace || !name) return;
    const record = await this.options.store.sandboxes.findLiveSandbox(namespace, name).catch(() => null);
    if (record) this.enqueue(record.id);
  }

  enqueue(id: string): void {
    this.queue.add(id);
    if (!this.draining) void this.drain();
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.queue.size > 0) {
        const id = this.queue.values().next().value as string;
        this.queue.delete(id);
        try {
          await this.reconcile(id);
        } catch (error) {
          this.options.onError?.(error);
        }
      }
    } finally {
      this.draining = false;
    }
  }

  /** Observe, derive, store, and tell the timeline what changed. */
  async reconcile(id: string): Promise<void> {
    const record = await this.options.store.sandboxes.getSandbox(id);
    if (!record || record.deletedAt) return;
    const next = deriveStatus(this.observe(record), record, (this.options.now ?? (() => new Date()))());
    if (!changed(record, next)) return;
    await this.options.store.sandboxes.saveStatus(id, next);
    await recordTimelineEvent(this.options.store.timeline, {
      sandboxId: id,
      type: "Lifecycle",
      reason: next.phase === record.phase ? `${next.phase}Changed` : next.phase,
      message: next.message ?? `The sandbox is ${next.phase}`,
      occurredAt: new Date(),
      data: { phase: next.phase, reason: next.reason, previousPhase: record.phase, podUid: next.podUid, nodeName: next.nodeName },
    });
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
    const events = this.events
      .list()
      .filter((event) => event.involvedObject?.namespace === record.namespace && involved.has(event.involvedObject?.name ?? ""))
      .sort((a, b) => eventTime(a) - eventTime(b));
    return { sandbox: sandbox ? observedSandbox(sandbox) : null, pod, claims, events, deleted: false };
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

function eventTime(event: CoreV1Event): number {
  const time = event.lastTimestamp ?? event.eventTime ?? event.firstTimestamp ?? event.metadata?.creationTimestamp;
  return time ? new Date(time as unknown as string).getTime() : 0;
}

function changed(before: SandboxStatus, after: SandboxStatus): boolean {
  return (
    before.phase !== after.phase ||
    before.reason !== after.reason ||
    before.message !== after.message ||
    before.podUid !== after.podUid ||
    before.nodeName !== after.nodeName
  );
}
