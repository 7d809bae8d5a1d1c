import type { CoreV1Event, KubernetesObject, V1Node, V1PersistentVolume, V1PersistentVolumeClaim, V1Pod, V1PodDisruptionBudget } from "@kubernetes/client-node";
import type { Observed, ObservedSandbox } from "../disruption/derive-status.ts";
import { readDisruptionDetails } from "../disruption/disruption-details.ts";
import { berthLabelKeys, MANAGED_BY_BERTH } from "../domain/labels.ts";
import { SANDBOX_NAME_HASH_LABEL, type SandboxApiVersion } from "../domain/sandbox-api.ts";
import type { SandboxRecord } from "../domain/sandbox-record.ts";
import { CacheIndex } from "../kube/cache-index.ts";
import type { ClusterConnection } from "../kube/cluster-connection.ts";
import { namespacedCache, WatchedNamespaces, type NamespaceScope, type ObjectCache } from "../kube/namespaced-watch-cache.ts";
import type { StoredSandbox } from "../kube/sandbox-resources.ts";
import { WatchCache, type WatchCacheOptions, type WatchCacheStats } from "../kube/watch-cache.ts";
import { eventTime } from "./event-time.ts";

// What the reconciler watches — Sandboxes, their pods, claims and budgets, the events about pods
// and claims, nodes and volumes — as caches every replica keeps, and what a sandbox's status is
// derived from, read from them. A change of any of them says which sandbox it may concern: by
// Berth's label (its id), or by name.

export type SandboxObject = StoredSandbox & KubernetesObject;

/** Where a watched change points: a sandbox by Berth's id, or by namespace and name. */
export interface ChangeSink {
  byId(id: string): void;
  byName(namespace: string | undefined, name: string | undefined): void;
}

export interface SandboxWatchesOptions {
  connection: ClusterConnection;
  sandboxApiVersion: SandboxApiVersion;
  labelPrefix: string;
  /** The namespaces Berth manages; absent: every namespace. */
  namespaces?: NamespaceScope;
  onError?: (error: unknown) => void;
}

export class SandboxWatches {
  readonly sandboxes: ObjectCache<SandboxObject>;
  readonly pods: ObjectCache<V1Pod>;
  readonly claims: ObjectCache<V1PersistentVolumeClaim>;
  readonly podEvents: ObjectCache<CoreV1Event>;
  readonly claimEvents: ObjectCache<CoreV1Event>;
  readonly persistentVolumes: WatchCache<V1PersistentVolume>;
  readonly nodes: WatchCache<V1Node>;
  readonly budgets: ObjectCache<V1PodDisruptionBudget>;
  private readonly managed: WatchedNamespaces | null;
  private readonly keys: ReturnType<typeof berthLabelKeys>;
  // A status is derived per sandbox, so each reads its claims and events by index: scanning every
  // claim and event of the cluster per sandbox made a storm of evictions quadratic.
  private readonly claimsBySandboxId: CacheIndex<V1PersistentVolumeClaim>;
  private readonly eventsByInvolvedObject = new CacheIndex<CoreV1Event>(({ involvedObject: about }) => [about?.namespace && about.name ? involvedKey(about.namespace, about.name) : undefined]);

  constructor(options: SandboxWatchesOptions) {
    const { connection, onError } = options;
    this.keys = berthLabelKeys(options.labelPrefix);
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
    // For the volumes view: which node a node-local volume pins its claim to.
    this.persistentVolumes = new WatchCache(connection, { apiVersion: "v1", kind: "PersistentVolume", path: "/api/v1/persistentvolumes", onError });
    // Subscribed before the caches start, so the indexes see their first lists too.
    const sandboxIdKey = this.keys.sandboxId;
    this.claimsBySandboxId = new CacheIndex((claim) => [claim.metadata?.labels?.[sandboxIdKey]]);
    this.claims.subscribe((change) => this.claimsBySandboxId.apply(change));
    for (const events of [this.podEvents, this.claimEvents]) events.subscribe((change) => this.eventsByInvolvedObject.apply(change));
  }

  private get caches() {
    return [this.sandboxes, this.pods, this.claims, this.podEvents, this.claimEvents, this.persistentVolumes, this.nodes, this.budgets];
  }

  /** Lists and watches everything; resolves once every cache has synced, then tells `sink` of each change. */
  async start(sink: ChangeSink): Promise<void> {
    await Promise.all(this.caches.map((cache) => cache.start()));
    const byLabelOrName = (object: KubernetesObject, name = object.metadata?.name) => {
      const id = object.metadata?.labels?.[this.keys.sandboxId];
      if (id) sink.byId(id);
      else sink.byName(object.metadata?.namespace, name);
    };
    this.sandboxes.subscribe(({ object }) => byLabelOrName(object));
    this.budgets.subscribe(({ object }) => {
      const id = object.metadata?.labels?.[this.keys.sandboxId];
      if (id) sink.byId(id);
    });
    this.pods.subscribe(({ object }) => byLabelOrName(object));
    this.claims.subscribe(({ object }) => byLabelOrName(object, claimOwnerName(object)));
    this.podEvents.subscribe(({ object }) => sink.byName(object.involvedObject?.namespace, object.involvedObject?.name));
    this.claimEvents.subscribe(({ object }) => sink.byName(object.involvedObject?.namespace, claimOwnerName({ metadata: { name: object.involvedObject?.name } })));
    this.nodes.subscribe(({ object, previous }) => {
      // Heartbeats change a node every few seconds; only a change a sandbox's status reads counts.
      if (previous && nodeState(previous) === nodeState(object)) return;
      for (const pod of this.pods.list()) if (pod.spec?.nodeName === object.metadata?.name) sink.byName(pod.metadata?.namespace, pod.metadata?.name);
    });
  }

  stop(): void {
    for (const cache of this.caches) cache.stop();
    this.managed?.stop();
  }

  /** What the sandbox's status is derived from, as the caches have it now. */
  observe(record: SandboxRecord): Observed {
    const sandbox = this.sandboxes.get(record.namespace, record.name);
    const pod = this.pods.get(record.namespace, record.name) ?? null;
    const claimNames = new Set([
      ...(pod?.spec?.volumes ?? []).flatMap((volume) => (volume.persistentVolumeClaim ? [volume.persistentVolumeClaim.claimName] : [])),
      ...this.claimsBySandboxId.get(record.id).map((claim) => claim.metadata!.name!),
      ...((sandbox?.spec?.volumeClaimTemplates as { metadata?: { name?: string } }[] | undefined) ?? []).map((template) => `${template.metadata?.name}-${record.name}`),
    ]);
    const claims = [...claimNames].flatMap((name) => {
      const claim = this.claims.get(record.namespace, name);
      return claim ? [claim] : [];
    });
    const events = [...new Set([record.name, ...claimNames])]
      .flatMap((name) => this.eventsByInvolvedObject.get(involvedKey(record.namespace, name)))
      .sort((a, b) => eventTime(a) - eventTime(b));
    // The node the pod is on — or, with the pod gone, the one it was on.
    const nodeName = pod?.spec?.nodeName ?? record.nodeName ?? readDisruptionDetails(record.details).disruption?.nodeName;
    const node = nodeName ? (this.nodes.get(undefined, nodeName) ?? null) : null;
    return { sandbox: sandbox ? observedSandbox(sandbox) : null, pod, node, claims, events, deleted: false };
  }

  /** What each watch went through: lists, watches, re-lists after 410 Gone, failures. */
  stats(): Record<"sandboxes" | "pods" | "claims" | "podEvents" | "claimEvents" | "persistentVolumes", WatchCacheStats> {
    return { sandboxes: this.sandboxes.stats, pods: this.pods.stats, claims: this.claims.stats, podEvents: this.podEvents.stats, claimEvents: this.claimEvents.stats, persistentVolumes: this.persistentVolumes.stats };
  }
}

function observedSandbox(sandbox: SandboxObject): ObservedSandbox {
  const spec = sandbox.spec ?? {};
  const running = "replicas" in spec ? spec.replicas !== 0 : spec.operatingMode !== "Suspended";
  return { metadata: sandbox.metadata, running };
}

/** What an Event is about, as one index value. */
function involvedKey(namespace: string, name: string): string {
  return `${namespace}/${name}`;
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
