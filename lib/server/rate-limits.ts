import type { RequestLimits } from "../config/limits-config.ts";

// How fast one person may change things, and how many event streams they may hold open: a token
// bucket per person and kind of request (creates, commands run in sandboxes, other writes; and
// sign-in attempts, counted per address before anyone is signed in), and
// a count of open streams. A person over a limit gets 429 with Retry-After; everyone else is
// untouched. Each replica counts its own requests (a person spread over N replicas may reach N
// times the rate), which is what keeps one replica answering.

export type RateClass = "creates" | "commands" | "writes" | "sign-ins";

export type RateLimitSettings = Pick<RequestLimits, "createsPerMinute" | "commandsPerMinute" | "writesPerMinute" | "signInsPerMinute" | "streamsPerPerson">;

export class RateLimitedError extends Error {
  constructor(
    readonly retryAfterSeconds: number,
    message: string,
  ) {
    super(message);
    this.name = "RateLimitedError";
  }
}

const WHAT: Record<RateClass, { noun: string; setting: string }> = {
  creates: { noun: "sandboxes created", setting: "BERTH_CREATES_PER_MINUTE (Helm value limits.createsPerMinute)" },
  commands: { noun: "commands and checkpoints run", setting: "BERTH_COMMANDS_PER_MINUTE (Helm value limits.commandsPerMinute)" },
  writes: { noun: "changes", setting: "BERTH_WRITES_PER_MINUTE (Helm value limits.writesPerMinute)" },
  "sign-ins": { noun: "sign-in attempts", setting: "BERTH_SIGN_INS_PER_MINUTE (Helm value limits.signInsPerMinute)" },
};

const SETTING: Record<RateClass, keyof RateLimitSettings> = { creates: "createsPerMinute", commands: "commandsPerMinute", writes: "writesPerMinute", "sign-ins": "signInsPerMinute" };

interface Bucket {
  tokens: number;
  at: number;
}

/** Buckets untouched this long are full again, and forgotten. */
const FORGET_AFTER_MS = 5 * 60_000;

export class RateLimits {
  private readonly buckets = new Map<string, Bucket>();
  private readonly streams = new Map<string, number>();
  private lastSweep: number;

  constructor(
    private readonly settings: RateLimitSettings,
    private readonly now: () => number = Date.now,
  ) {
    this.lastSweep = now();
  }

  private perMinute(rate: RateClass): number {
    return this.settings[SETTING[rate]];
  }

  /**
   * Takes one token of `person`'s bucket for `rate`, or throws RateLimitedError saying when the
   * next one is there. A bucket holds a minute's worth: N per minute, in bursts of up to N.
   */
  take(person: string, rate: RateClass): void {
    const now = this.now();
    this.sweep(now);
    const capacity = this.perMinute(rate);
    const perMs = capacity / 60_000;
    const key = `${rate}\u0000${person}`;
    const bucket = this.buckets.get(key) ?? { tokens: capacity, at: now };
    bucket.tokens = Math.min(capacity, bucket.tokens + (now - bucket.at) * perMs);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return;
    }
    const retryAfterSeconds = Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000));
    throw new RateLimitedError(retryAfterSeconds, `${person} has reached the limit of ${capacity} ${WHAT[rate].noun} per minute; try again in ${retryAfterSeconds} s. The platform team sets it with ${WHAT[rate].setting}.`);
  }

  /** Counts an open event stream of `person`; the returned function, called once, counts it closed. */
  openStream(person: string): () => void {
    const open = this.streams.get(person) ?? 0;
    if (open >= this.settings.streamsPerPerson) {
      throw new RateLimitedError(5, `${person} already has ${open} event streams open, the most one person may (BERTH_STREAMS_PER_PERSON, Helm value limits.streamsPerPerson); close a tab or wait for one to end.`);
    }
    this.streams.set(person, open + 1);
    let closed = false;
    return () => {
      if (closed) return;
      closed = true;
      const left = (this.streams.get(person) ?? 1) - 1;
      if (left > 0) this.streams.set(person, left);
      else this.streams.delete(person);
    };
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < FORGET_AFTER_MS) return;
    this.lastSweep = now;
    for (const [key, bucket] of this.buckets) if (now - bucket.at > FORGET_AFTER_MS) this.buckets.delete(key);
  }
}
