// A queue of keys to reconcile, shaped like client-go's workqueue as controller-runtime drives it:
// - a key waits in the queue at most once, however often it is added;
// - a key being reconciled is not reconciled again at the same time; added meanwhile, it is
//   reconciled once more afterwards (the change may have come too late for the pass under way);
// - a reconcile that throws is retried after a per-key exponential backoff (client-go's
//   ItemExponentialFailureRateLimiter: 5 ms doubling up to 1000 s), reset once the key succeeds;
// - a reconcile may ask to look at its key again later (requeue-after); an earlier wake-up wins.
// Keys are typed; `identify` says which two keys are the same.

export interface ReconcileResult {
  /** Look at this key again after this long, even if nothing changes. */
  requeueAfterMs?: number;
}

export interface WorkQueueOptions<K> {
  identify: (key: K) => string;
  reconcile: (key: K) => Promise<ReconcileResult | void>;
  onError?: (error: unknown, key: K) => void;
  /** How many keys are reconciled at once (never the same key twice). */
  workers?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
}

export const DEFAULT_BASE_DELAY_MS = 5;
export const DEFAULT_MAX_DELAY_MS = 1_000_000;

interface Waiting {
  timer: NodeJS.Timeout;
  dueAt: number;
}

export class WorkQueue<K> {
  private readonly queued = new Map<string, K>();
  private readonly processing = new Set<string>();
  /** Added while being reconciled: queued again once that pass ends. */
  private readonly dirty = new Map<string, K>();
  private readonly waiting = new Map<string, Waiting>();
  private readonly failures = new Map<string, number>();
  private readonly idleWaiters = new Set<() => void>();
  private stopped = false;

  constructor(private readonly options: WorkQueueOptions<K>) {}

  add(key: K): void {
    if (this.stopped) return;
    const id = this.options.identify(key);
    if (this.processing.has(id)) this.dirty.set(id, key);
    else this.queued.set(id, key);
    this.pump();
  }

  /** Adds the key once `delayMs` has passed (at once for 0); an earlier wake-up of the same key wins. */
  addAfter(key: K, delayMs: number): void {
    if (this.stopped) return;
    if (delayMs <= 0) {
      this.add(key);
      return;
    }
    const id = this.options.identify(key);
    const dueAt = Date.now() + delayMs;
    const existing = this.waiting.get(id);
    if (existing && existing.dueAt <= dueAt) return;
    if (existing) clearTimeout(existing.timer);
    const timer = setTimeout(() => {
      this.waiting.delete(id);
      this.add(key);
    }, delayMs);
    timer.unref?.();
    this.waiting.set(id, { timer, dueAt });
  }

  /** How many times in a row the key's reconcile has failed. */
  failuresOf(key: K): number {
    return this.failures.get(this.options.identify(key)) ?? 0;
  }

  /** The wait before the next retry of a key that has failed `failures` times in a row. */
  backoffMs(failures: number): number {
    const base = this.options.baseDelayMs ?? DEFAULT_BASE_DELAY_MS;
    return Math.min(this.options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS, base * 2 ** Math.max(0, failures - 1));
  }

  /** Resolves once nothing is queued or being reconciled (keys waiting for later do not count). */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.add(resolve));
  }

  stop(): void {
    this.stopped = true;
    for (const { timer } of this.waiting.values()) clearTimeout(timer);
    this.waiting.clear();
    this.queued.clear();
    this.dirty.clear();
    this.tellIdle();
  }

  private isIdle(): boolean {
    return this.queued.size === 0 && this.processing.size === 0;
  }

  private pump(): void {
    const workers = this.options.workers ?? 1;
    while (!this.stopped && this.processing.size < workers && this.queued.size > 0) {
      const [id, key] = this.queued.entries().next().value as [string, K];
      this.queued.delete(id);
      this.processing.add(id);
      void this.process(id, key);
    }
  }

  private async process(id: string, key: K): Promise<void> {
    try {
      // Each pass waits its turn behind I/O: with a store that answers within microtasks (the
      // embedded one), a burst of thousands of passes would hold the event loop for seconds.
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (this.stopped) return;
      const result = await this.options.reconcile(key);
      this.failures.delete(id);
      if (result?.requeueAfterMs !== undefined) this.addAfter(key, result.requeueAfterMs);
    } catch (error) {
      const failures = (this.failures.get(id) ?? 0) + 1;
      this.failures.set(id, failures);
      this.options.onError?.(error, key);
      this.addAfter(key, this.backoffMs(failures));
    } finally {
      this.processing.delete(id);
      const again = this.dirty.get(id);
      if (again !== undefined) {
        this.dirty.delete(id);
        this.queued.set(id, again);
      }
      this.pump();
      if (this.isIdle()) this.tellIdle();
    }
  }

  private tellIdle(): void {
    for (const resolve of this.idleWaiters) resolve();
    this.idleWaiters.clear();
  }
}
