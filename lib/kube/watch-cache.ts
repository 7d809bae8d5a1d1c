import { KubernetesObjectApi, Watch, type KubernetesObject } from "@kubernetes/client-node";
import type { ClusterConnection } from "./cluster-connection.ts";
import { kube, KubeApiError } from "./kube-errors.ts";
import { applyWatchEvent, cacheKey, replaceAll, type CacheChange, type WatchEventType } from "./watch-reducer.ts";

// A list-then-watch cache of one kind, the way client-go's reflector keeps one: list (in pages),
// watch from the list's resourceVersion with bookmarks, re-list when the watch answers 410 Gone,
// re-establish a dropped watch with backoff. Every watch can drop; none of that is an error the
// rest of Berth sees, only a delay.

export interface WatchCacheOptions {
  apiVersion: string;
  kind: string;
  /** The collection's path, e.g. /api/v1/pods or /apis/agents.x-k8s.io/v1beta1/sandboxes. */
  path: string;
  /** Only this namespace's objects (the path is then the namespace's collection); absent: all. */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Backoff after a failed list or watch: doubles from initialMs up to maxMs. */
  backoff?: { initialMs: number; maxMs: number };
  onError?: (error: unknown) => void;
}

export interface WatchCacheStats {
  lists: number;
  watches: number;
  /** Times the cache had to list again because its resourceVersion was too old (410). */
  relistsAfterGone: number;
  failures: number;
}

const PAGE_SIZE = 500;

export class WatchCache<T extends KubernetesObject> {
  private readonly objects = new Map<string, T>();
  private readonly listeners = new Set<(change: CacheChange<T>) => void>();
  private resourceVersion: string | null = null;
  private stopped = false;
  private current: AbortController | undefined;
  private wake: (() => void) | undefined;
  private synced!: Promise<void>;
  readonly stats: WatchCacheStats = { lists: 0, watches: 0, relistsAfterGone: 0, failures: 0 };

  constructor(
    private readonly connection: ClusterConnection,
    private readonly options: WatchCacheOptions,
  ) {}

  /** Starts listing and watching; resolves once the first list is in the cache. */
  start(): Promise<void> {
    let resolveSynced: () => void = () => {};
    this.synced = new Promise((resolve) => (resolveSynced = resolve));
    void this.run(resolveSynced);
    return this.synced;
  }

  stop(): void {
    this.stopped = true;
    this.current?.abort();
    this.wake?.();
  }

  list(): T[] {
    return [...this.objects.values()];
  }

  get(namespace: string | undefined, name: string): T | undefined {
    return this.objects.get(cacheKey({ metadata: { namespace, name } }));
  }

  subscribe(listener: (change: CacheChange<T>) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(change: CacheChange<T>): void {
    notifyListeners(this.listeners, change, this.options.onError);
  }

  private async run(synced: () => void): Promise<void> {
    const { initialMs, maxMs } = this.options.backoff ?? { initialMs: 200, maxMs: 30_000 };
    let failures = 0;
    while (!this.stopped) {
      try {
        if (this.resourceVersion === null) {
          await this.relist();
          synced();
        }
        await this.watchOnce();
        failures = 0;
      } catch (error) {
        if (this.stopped) return;
        failures++;
        this.stats.failures++;
        this.options.onError?.(error);
        // Full jitter, so a restarted API server is not hit by every watcher at once.
        await this.pause(Math.random() * Math.min(maxMs, initialMs * 2 ** (failures - 1)));
      }
    }
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private async relist(): Promise<void> {
    const api = KubernetesObjectApi.makeApiClient(this.connection.kubeConfig);
    const listed: T[] = [];
    let token: string | undefined;
    let version = "";
    do {
      const page = await kube(() =>
        api.list<T>(this.options.apiVersion, this.options.kind, this.options.namespace, undefined, undefined, undefined, this.options.fieldSelector, this.options.labelSelector, PAGE_SIZE, token),
      );
      listed.push(...page.items.map((item) => ({ ...item, apiVersion: this.options.apiVersion, kind: this.options.kind })));
      token = page.metadata?._continue || undefined;
      version = page.metadata?.resourceVersion ?? version;
    } while (token);
    this.stats.lists++;
    for (const change of replaceAll(this.objects, listed)) this.emit(change);
    this.resourceVersion = version;
  }

  /** One watch, until it ends. Resolves on a clean end or a 410; rejects when it failed. */
  private watchOnce(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      const finish = (error?: unknown) => {
        if (settled) return;
        settled = true;
        if (error) reject(error);
        else resolve();
      };
      this.stats.watches++;
      new Watch(this.connection.kubeConfig)
        .watch(
          collectionPath(this.options.path, this.options.namespace),
          { resourceVersion: this.resourceVersion ?? undefined, allowWatchBookmarks: true, labelSelector: this.options.labelSelector, fieldSelector: this.options.fieldSelector },
          (type: string, object: T & { code?: number }) => {
            if (type === "BOOKMARK") {
              this.resourceVersion = object.metadata?.resourceVersion ?? this.resourceVersion;
            } else if (type === "ERROR") {
              // 410 Gone: our resourceVersion is older than the server's history. List again.
              if (object.code === 410) {
                this.stats.relistsAfterGone++;
                this.resourceVersion = null;
                this.current?.abort();
                finish();
              } else {
                finish(new KubeApiError(object.code ?? 500, "WatchError", JSON.stringify(object)));
              }
            } else {
              this.resourceVersion = object.metadata?.resourceVersion ?? this.resourceVersion;
              const change = applyWatchEvent(this.objects, type as WatchEventType, object);
              if (change) this.emit(change);
            }
          },
          (error: unknown) => finish(error ?? undefined),
        )
        .then((controller) => {
          this.current = controller;
          if (this.stopped) controller.abort();
        })
        .catch((error: unknown) => finish(error));
    });
  }
}

/** /api/v1/pods in namespace "a" is /api/v1/namespaces/a/pods. */
export function collectionPath(path: string, namespace: string | undefined): string {
  if (!namespace) return path;
  const cut = path.lastIndexOf("/");
  return `${path.slice(0, cut)}/namespaces/${encodeURIComponent(namespace)}${path.slice(cut)}`;
}

/** Tells every listener of a change; one that throws is reported and does not stop the rest. */
export function notifyListeners<T>(listeners: Iterable<(change: T) => void>, change: T, onError?: (error: unknown) => void): void {
  for (const listener of listeners) {
    try {
      listener(change);
    } catch (error) {
      onError?.(error);
    }
  }
}
