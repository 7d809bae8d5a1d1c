import type { TimelineEvent } from "../domain/timeline.ts";
import type { TimelineRepository } from "../store/timeline-repository.ts";
import { logOf } from "../platform/logger.ts";

// The live timeline of one process, fed from the store rather than from the process's own
// writes: every replica publishes every event, whichever replica stored it, each once and in id
// order. Appends commit in id order (timeline-repository.ts), so "everything after the last id
// published" is all a feed ever reads. The store says when to look (this process's appends at
// once; other replicas' through PostgreSQL NOTIFY), and a slow poll covers a word lost on a
// dropped connection.

export type TimelineSource = Pick<TimelineRepository, "listAfter" | "newestId" | "onAppended">;

export interface TimelineFeedOptions {
  /** How often to look without being told (a lost notification is then late, not lost). */
  pollMs?: number;
  /** Events read from the store at once. */
  pageSize?: number;
  /** After a failed read, how long before the next. */
  retryMs?: number;
  onError?: (error: unknown) => void;
  /**
   * Given each page of new events before any of it is published, so that what subscribers read
   * alongside an event (the live list) is at least as new as the event. A failure is reported
   * (onError) and the page published all the same: the timeline is not held up by its readers.
   */
  beforePublish?: (events: TimelineEvent[]) => Promise<void>;
}

type Listener = (event: TimelineEvent) => void;

export class TimelineFeed {
  private readonly listeners = new Set<Listener>();
  /** Ids of events appended by this process that callers wait to see published. */
  private readonly waiting: { id: bigint; resolve: () => void }[] = [];
  private delivered: bigint | null = null;
  private published = 0;
  private reading: Promise<void> | null = null;
  private lookAgain = false;
  private stopped = false;
  private poll: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;
  private unsubscribe: () => void = () => {};
  private readonly pageSize: number;

  constructor(private readonly source: TimelineSource, private readonly options: TimelineFeedOptions = {}) {
    this.pageSize = options.pageSize ?? 500;
  }

  /** Starts after the newest stored event: what came before is the store's to replay, not news. */
  async start(): Promise<void> {
    const newest = await this.source.newestId();
    this.delivered = newest === null ? 0n : BigInt(newest);
    // Appends commit in id order: word of one already published (a read under way took it) needs no read.
    this.unsubscribe = this.source.onAppended((id) => {
      if (id === null || this.delivered === null || BigInt(id) > this.delivered) this.look();
    });
    this.poll = setInterval(() => this.look(), this.options.pollMs ?? 2_000);
    this.poll.unref?.();
    // Anything stored between reading the newest id and listening.
    this.look();
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe();
    clearInterval(this.poll);
    clearTimeout(this.retry);
    for (const waiter of this.waiting.splice(0)) waiter.resolve();
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** How many events this feed has published: while it stays the same, nothing was published since. */
  publishedSoFar(): number {
    return this.published;
  }

  /**
   * Resolves once the event with this id (and every one before it) has been published, or the
   * feed could not read the store: the event is stored either way, and will be published when
   * the store answers again.
   */
  publishedThrough(id: string): Promise<void> {
    const wanted = BigInt(id);
    if (this.stopped || (this.delivered !== null && this.delivered >= wanted)) return Promise.resolve();
    return new Promise((resolve) => {
      this.waiting.push({ id: wanted, resolve });
      // A read under way has it, or was told to read again when the append committed: asking
      // for another read would read nothing.
      if (!this.reading) this.look();
    });
  }

  /** Reads what is new: now, or right after the read under way. */
  look(): void {
    if (this.stopped || this.delivered === null) return;
    if (this.reading) {
      this.lookAgain = true;
      return;
    }
    this.reading = this.readNew().finally(() => (this.reading = null));
  }

  private async readNew(): Promise<void> {
    try {
      do {
        this.lookAgain = false;
        const events = await this.source.listAfter({ after: this.delivered!.toString(), limit: this.pageSize });
        if (events.length > 0) await this.options.beforePublish?.(events).catch((error: unknown) => this.options.onError?.(error));
        for (const event of events) this.publish(event);
        if (events.length === this.pageSize) this.lookAgain = true;
        this.release(false);
      } while (this.lookAgain && !this.stopped);
    } catch (error) {
      this.options.onError?.(error);
      this.release(true);
      clearTimeout(this.retry);
      this.retry = setTimeout(() => this.look(), this.options.retryMs ?? 1_000);
      this.retry.unref?.();
    }
  }

  private publish(event: TimelineEvent): void {
    if (this.stopped) return;
    this.delivered = BigInt(event.id);
    this.published++;
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        logOf("events").error({ err: error }, "an event subscriber failed");
      }
    }
  }

  /** Lets go of the callers whose event is published; of every caller when the store would not answer. */
  private release(all: boolean): void {
    for (let index = this.waiting.length - 1; index >= 0; index--) {
      const waiter = this.waiting[index]!;
      if (all || waiter.id <= this.delivered!) {
        this.waiting.splice(index, 1);
        waiter.resolve();
      }
    }
  }
}
