import type { Clock } from "../clock.ts";
import { refs } from "../k8s-objects.ts";
import type { ObjectStore } from "../store/object-store.ts";

// Events expire: the API server stores them with a one-hour TTL (--event-ttl), so a client that
// wants history must keep it itself. Swept once a simulated minute.

export const EVENT_TTL_MS = 60 * 60_000;
const SWEEP_INTERVAL_MS = 60_000;

export class EventExpiry {
  private cancel: () => void = () => {};

  constructor(
    private readonly store: ObjectStore,
    private readonly clock: Clock,
    private readonly ttlMs = EVENT_TTL_MS,
  ) {}

  start(): void {
    const sweep = () => {
      try {
        this.sweep();
      } catch (error) {
        console.error("simulated cluster: expiring events failed", error);
      } finally {
        this.cancel = this.clock.after(SWEEP_INTERVAL_MS, sweep);
      }
    };
    this.cancel = this.clock.after(SWEEP_INTERVAL_MS, sweep);
  }

  stop(): void {
    this.cancel();
  }

  /** Deletes every event last seen more than the TTL ago; returns how many. */
  sweep(): number {
    const cutoff = this.clock.now().getTime() - this.ttlMs;
    let expired = 0;
    for (const event of this.store.list(refs.events)) {
      const last = Date.parse(String(event.lastTimestamp ?? event.eventTime ?? event.metadata.creationTimestamp));
      if (last < cutoff) {
        this.store.delete(refs.events, event.metadata.namespace, event.metadata.name);
        expired++;
      }
    }
    return expired;
  }
}
