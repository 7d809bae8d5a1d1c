// How many of a run's API-heavy steps go at once: as many as the API server takes. The limit
// starts at its most; each time the server has throttled (429 with Retry-After) since the limit
// was last cut, the next step to end halves it; a step that ends with no throttle seen while it
// ran lets one more through. Additive increase, multiplicative decrease, as TCP paces itself.

export interface AdaptivePace {
  /** Throttled answers seen while the limit was in use. */
  throttled: number;
  /** The lowest the limit went. */
  fewestAtOnce: number;
}

export class AdaptiveLimit {
  private readonly most: number;
  private current: number;
  private held = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly firstSeen: number;
  private lastCut: number;
  private fewest: number;

  /** `throttles` is a running count of throttled answers (kube's `throttledSoFar`). */
  constructor(
    most: number,
    private readonly throttles: () => number,
  ) {
    this.most = this.current = this.fewest = Math.max(1, most);
    this.firstSeen = this.lastCut = throttles();
  }

  /** Runs `step` once a place is free, and learns from how it went. */
  async run<T>(step: () => Promise<T>): Promise<T> {
    await this.place();
    const seenBefore = this.throttles();
    try {
      return await step();
    } finally {
      this.learn(seenBefore);
    }
  }

  get pace(): AdaptivePace {
    return { throttled: this.throttles() - this.firstSeen, fewestAtOnce: this.fewest };
  }

  private place(): Promise<void> {
    if (this.held < this.current) {
      this.held++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private learn(seenBefore: number): void {
    const seen = this.throttles();
    if (seen > this.lastCut) {
      this.current = Math.max(1, Math.floor(this.current / 2));
      this.lastCut = seen;
      this.fewest = Math.min(this.fewest, this.current);
    } else if (seen === seenBefore) {
      this.current = Math.min(this.most, this.current + 1);
    }
    this.held--;
    while (this.held < this.current && this.waiting.length > 0) {
      this.held++;
      this.waiting.shift()!();
    }
  }
}
