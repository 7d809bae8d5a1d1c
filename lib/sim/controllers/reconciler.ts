import type { Clock } from "../clock.ts";
import { StatusError } from "../status-error.ts";
import type { ObjectStore, StoreEvent } from "../store/object-store.ts";

// The controller-runtime pattern in miniature: watched changes enqueue a key, never the event;
// reconcile re-reads the world for that key and acts; errors retry with backoff; a result may
// ask to look again later. Keys are deduplicated while queued.

export interface ReconcileResult {
  /** Look at this key again after this much simulated time. */
  requeueAfterMs?: number;
}

export interface Reconciler {
  readonly name: string;
  /** Which keys a store change concerns (may be none). */
  keysFor(event: StoreEvent): string[];
  reconcile(key: string): ReconcileResult | void | Promise<ReconcileResult | void>;
  /** Keys to look at when the controller starts (everything it owns). */
  initialKeys?(): string[];
  /** Receives the loop's enqueue, for controllers that requeue keys themselves (e.g. on a fault). */
  connect?(enqueue: (key: string) => void): void;
}

const MAX_BACKOFF_MS = 30_000;

export class ReconcileLoop {
  private readonly queued = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly timers = new Map<string, () => void>();
  private scheduled = false;
  private running = false;
  private stopped = false;
  private unsubscribe: () => void = () => {};

  constructor(
    private readonly reconciler: Reconciler,
    private readonly store: ObjectStore,
    private readonly clock: Clock,
    private readonly onError: (name: string, key: string, error: unknown) => void = () => {},
  ) {}

  start(): void {
    this.reconciler.connect?.((key) => this.enqueue(key));
    this.unsubscribe = this.store.subscribe((event) => {
      for (const key of this.reconciler.keysFor(event)) this.enqueue(key);
    });
    for (const key of this.reconciler.initialKeys?.() ?? []) this.enqueue(key);
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe();
    for (const cancel of this.timers.values()) cancel();
    this.timers.clear();
  }

  enqueue(key: string): void {
    if (this.stopped) return;
    this.queued.add(key);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => void this.drain());
    }
  }

  /** Enqueue after simulated time passes; a sooner request replaces a later one. */
  enqueueAfter(key: string, ms: number): void {
    this.timers.get(key)?.();
    const cancel = this.clock.after(ms, () => {
      this.timers.delete(key);
      this.enqueue(key);
    });
    this.timers.set(key, cancel);
  }

  /** True while nothing is queued or being reconciled: the simulated world is at rest. */
  get idle(): boolean {
    return this.queued.size === 0 && !this.running && !this.scheduled;
  }

  private async drain(): Promise<void> {
    this.scheduled = false;
    if (this.running || this.stopped) return;
    this.running = true;
    try {
      while (this.queued.size > 0 && !this.stopped) {
        const key = this.queued.values().next().value as string;
        this.queued.delete(key);
        try {
          const result = await this.reconciler.reconcile(key);
          this.failures.delete(key);
          if (result?.requeueAfterMs !== undefined) this.enqueueAfter(key, result.requeueAfterMs);
        } catch (error) {
          const failures = (this.failures.get(key) ?? 0) + 1;
          // A conflict means someone else wrote first: look again at once, a few times.
          if (error instanceof StatusError && error.status.reason === "Conflict" && failures < 5) {
            this.failures.set(key, failures);
            this.queued.add(key);
            continue;
          }
          this.failures.set(key, failures);
          this.onError(this.reconciler.name, key, error);
          this.enqueueAfter(key, Math.min(MAX_BACKOFF_MS, 100 * 2 ** failures));
        }
      }
    } finally {
      this.running = false;
    }
  }
}
