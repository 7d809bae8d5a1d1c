import type { KubernetesObject, V1Namespace } from "@kubernetes/client-node";
import type { ClusterConnection } from "./cluster-connection.ts";
import { notifyListeners, WatchCache, type WatchCacheOptions, type WatchCacheStats } from "./watch-cache.ts";
import type { CacheChange } from "./watch-reducer.ts";

// Watches limited to the namespaces Berth manages, the way controller-runtime's multi-namespace
// cache keeps a namespaced kind: one list-and-watch per namespace, seen as one cache. The set of
// namespaces is level-triggered: a fixed list, or the namespaces carrying a label, followed by a
// watch of its own. A namespace that leaves the set takes its objects with it (listeners hear
// each one deleted from the cache); one that joins is listed and watched from then on.

/** Which namespaces a namespaced kind is watched in. */
export type NamespaceScope = { kind: "all" } | { kind: "listed"; names: string[] } | { kind: "labelled"; labelSelector: string };

/** What the status reconciler reads from a cache, whether it watches one namespace set or all. */
export interface ObjectCache<T extends KubernetesObject> {
  start(): Promise<void>;
  stop(): void;
  list(): T[];
  get(namespace: string | undefined, name: string): T | undefined;
  subscribe(listener: (change: CacheChange<T>) => void): () => void;
  readonly stats: WatchCacheStats;
}

/** The namespaces in scope, kept current; shared by every cache limited to them. */
export class WatchedNamespaces {
  private readonly listeners = new Set<() => void>();
  private readonly labelled: WatchCache<V1Namespace> | null;
  private started: Promise<void> | undefined;

  constructor(
    connection: ClusterConnection,
    private readonly scope: Exclude<NamespaceScope, { kind: "all" }>,
    onError?: (error: unknown) => void,
  ) {
    this.labelled =
      scope.kind === "labelled" ? new WatchCache<V1Namespace>(connection, { apiVersion: "v1", kind: "Namespace", path: "/api/v1/namespaces", labelSelector: scope.labelSelector, onError }) : null;
    this.labelled?.subscribe(() => {
      for (const listener of this.listeners) listener();
    });
  }

  /** Resolves once the set is known; every cache sharing it may call it. */
  start(): Promise<void> {
    this.started ??= this.labelled?.start() ?? Promise.resolve();
    return this.started;
  }

  stop(): void {
    this.labelled?.stop();
  }

  names(): string[] {
    if (!this.labelled) return this.scope.kind === "listed" ? this.scope.names : [];
    return this.labelled.list().flatMap((namespace) => (namespace.metadata?.name ? [namespace.metadata.name] : []));
  }

  /** Called after every change to the set (possibly with no net change). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

const NO_STATS: WatchCacheStats = { lists: 0, watches: 0, relistsAfterGone: 0, failures: 0 };

function addStats(a: WatchCacheStats, b: WatchCacheStats): WatchCacheStats {
  return { lists: a.lists + b.lists, watches: a.watches + b.watches, relistsAfterGone: a.relistsAfterGone + b.relistsAfterGone, failures: a.failures + b.failures };
}

/** One kind, watched in each namespace of the set. */
export class NamespacedWatchCache<T extends KubernetesObject> implements ObjectCache<T> {
  private readonly perNamespace = new Map<string, WatchCache<T>>();
  private readonly listeners = new Set<(change: CacheChange<T>) => void>();
  private retired: WatchCacheStats = NO_STATS;
  private stopHearing: (() => void) | undefined;
  private stopped = false;

  constructor(
    private readonly connection: ClusterConnection,
    private readonly options: Omit<WatchCacheOptions, "namespace">,
    private readonly namespaces: WatchedNamespaces,
  ) {}

  async start(): Promise<void> {
    await this.namespaces.start();
    if (this.stopped) return;
    this.stopHearing = this.namespaces.onChange(() => void this.follow().catch((error: unknown) => this.options.onError?.(error)));
    await this.follow();
  }

  stop(): void {
    this.stopped = true;
    this.stopHearing?.();
    for (const cache of this.perNamespace.values()) cache.stop();
  }

  list(): T[] {
    return [...this.perNamespace.values()].flatMap((cache) => cache.list());
  }

  get(namespace: string | undefined, name: string): T | undefined {
    return namespace === undefined ? undefined : this.perNamespace.get(namespace)?.get(namespace, name);
  }

  subscribe(listener: (change: CacheChange<T>) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get stats(): WatchCacheStats {
    return [...this.perNamespace.values()].reduce((sum, cache) => addStats(sum, cache.stats), this.retired);
  }

  /** Makes the per-namespace caches match the set; resolves once the new ones have listed. */
  private async follow(): Promise<void> {
    if (this.stopped) return;
    const wanted = new Set(this.namespaces.names());
    for (const [namespace, cache] of this.perNamespace) {
      if (wanted.has(namespace)) continue;
      cache.stop();
      this.perNamespace.delete(namespace);
      this.retired = addStats(this.retired, cache.stats);
      for (const object of cache.list()) this.emit({ type: "DELETED", object, previous: object });
    }
    const joined = [...wanted].filter((namespace) => !this.perNamespace.has(namespace));
    await Promise.all(
      joined.map((namespace) => {
        const cache = new WatchCache<T>(this.connection, { ...this.options, namespace });
        cache.subscribe((change) => this.emit(change));
        this.perNamespace.set(namespace, cache);
        return cache.start();
      }),
    );
  }

  private emit(change: CacheChange<T>): void {
    notifyListeners(this.listeners, change, this.options.onError);
  }
}

/**
 * A cache of one namespaced kind in the scope: one cluster-wide watch for "all", else one per
 * namespace of the shared set.
 */
export function namespacedCache<T extends KubernetesObject>(
  connection: ClusterConnection,
  options: Omit<WatchCacheOptions, "namespace">,
  namespaces: WatchedNamespaces | null,
): ObjectCache<T> {
  return namespaces ? new NamespacedWatchCache<T>(connection, options, namespaces) : new WatchCache<T>(connection, options);
}
