// The simulated cluster's time. Every controller, timer and timestamp goes through a Clock so
// that minutes of Kubernetes time (grace periods, heartbeats, toleration seconds) can pass in
// seconds, and tests can move time by hand instead of waiting.

export interface Clock {
  now(): Date;
  /** Runs `callback` after `ms` of simulated time; returns a function that cancels it. */
  after(ms: number, callback: () => void): () => void;
  /** Resolves after `ms` of simulated time, or rejects when the signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

function abortable(signal: AbortSignal | undefined, start: (resolve: () => void) => () => void): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const cancel = start(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    });
    const onAbort = () => {
      cancel();
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Real time sped up by `scale` (1 = real time, 60 = a minute a second). */
export class ScaledClock implements Clock {
  private readonly realStart = Date.now();
  private readonly simStart: number;

  constructor(
    readonly scale = 1,
    start: Date = new Date(),
  ) {
    if (!(scale > 0)) throw new Error(`clock scale must be positive, got ${scale}`);
    this.simStart = start.getTime();
  }

  now(): Date {
    return new Date(this.simStart + (Date.now() - this.realStart) * this.scale);
  }

  after(ms: number, callback: () => void): () => void {
    if (!Number.isFinite(ms)) return () => {};
    // setTimeout cannot wait longer than 2^31-1 ms; chain waits for longer delays.
    const realMs = Math.max(0, ms / this.scale);
    const MAX = 2 ** 31 - 1;
    if (realMs > MAX) {
      let cancelNext = () => {};
      const timer = setTimeout(() => {
        cancelNext = this.after((realMs - MAX) * this.scale, callback);
      }, MAX);
      timer.unref?.();
      return () => {
        clearTimeout(timer);
        cancelNext();
      };
    }
    // Node's timers may fire a millisecond before Date.now() says the delay is over; a timer that
    // woke early waits out the rest, so simulated time has always moved by `ms` when it fires.
    const due = this.now().getTime() + ms;
    let timer: NodeJS.Timeout;
    const arm = (delay: number) => {
      timer = setTimeout(() => {
        const early = due - this.now().getTime();
        if (early > 0) arm(early / this.scale);
        else callback();
      }, delay);
      timer.unref?.();
    };
    arm(realMs);
    return () => clearTimeout(timer);
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return abortable(signal, (resolve) => this.after(ms, resolve));
  }
}

/** A clock that moves only when told to: for tests. */
export class ManualClock implements Clock {
  private current: number;
  private timers: { at: number; seq: number; callback: () => void }[] = [];
  private seq = 0;

  constructor(start: Date = new Date("2026-01-01T00:00:00Z")) {
    this.current = start.getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  after(ms: number, callback: () => void): () => void {
    if (!Number.isFinite(ms)) return () => {};
    const timer = { at: this.current + Math.max(0, ms), seq: this.seq++, callback };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((other) => other !== timer);
    };
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return abortable(signal, (resolve) => this.after(ms, resolve));
  }

  /** Moves time forward, firing due timers in order (including ones they schedule). */
  async advance(ms: number): Promise<void> {
    const end = this.current + ms;
    for (;;) {
      const due = this.timers.filter((timer) => timer.at <= end).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.timers = this.timers.filter((timer) => timer !== due);
      this.current = Math.max(this.current, due.at);
      due.callback();
      // Let promise continuations of the callback run before the next timer.
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.current = end;
  }
}
