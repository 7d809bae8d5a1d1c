import { CoordinationV1Api, V1MicroTime, type V1Lease } from "@kubernetes/client-node";
import type { ClusterConnection } from "./cluster-connection.ts";
import { KubeApiError, kube, nullIfNotFound } from "./kube-errors.ts";

// One writer among Berth's replicas, elected on a coordination.k8s.io Lease the way client-go's
// leaderelection package does it, so that the Lease reads the same to kubectl and to anyone
// who knows client-go:
// - the Lease is written only with the resourceVersion it was read at (a compare-and-set), so
//   two candidates cannot both take it;
// - another holder's lease counts as expired only once its record has not changed for the whole
//   lease duration by this process's clock (never by comparing the holder's timestamps with ours);
// - a leader that cannot renew within the renew deadline stops leading, before its lease can
//   expire for the others;
// - a leader that stops releases the Lease (no holder, a one-second duration), so another takes
//   over at once rather than after a lease duration;
// - leaseTransitions counts changes of holder: with each acquisition it grows, so it serves as
//   the leader's term, which writes that must not come from a deposed leader carry.

export interface LeaderElectionOptions {
  namespace: string;
  name: string;
  /** Who this replica is (its pod name), as the Lease's holderIdentity says. */
  identity: string;
  /** client-go's defaults: 15 s, 10 s and 2 s. */
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  onError?: (error: unknown) => void;
}

export interface Leadership {
  /** Whether this replica leads, and since which term. */
  leading: { term: number } | null;
  /** Who holds the Lease as last read, this replica included; null when nobody does. */
  holder: string | null;
}

type Listener = (leadership: Leadership) => void;

/** client-go waits a random extra of up to 1.2 × the retry period, so candidates do not move in step. */
const JITTER = 1.2;

export class LeaderElector {
  private readonly api: CoordinationV1Api;
  private readonly leaseDurationMs: number;
  private readonly renewDeadlineMs: number;
  private readonly retryPeriodMs: number;
  private readonly listeners = new Set<Listener>();
  private state: Leadership = { leading: null, holder: null };
  /** The Lease's record as last read, and when (this process's clock) it was seen to change. */
  private observed: { record: string; at: number } | null = null;
  private lastRenewed = 0;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(connection: ClusterConnection, private readonly options: LeaderElectionOptions) {
    this.api = connection.kubeConfig.makeApiClient(CoordinationV1Api);
    this.leaseDurationMs = options.leaseDurationMs ?? 15_000;
    this.renewDeadlineMs = options.renewDeadlineMs ?? 10_000;
    this.retryPeriodMs = options.retryPeriodMs ?? 2_000;
    if (!(this.leaseDurationMs > this.renewDeadlineMs && this.renewDeadlineMs > this.retryPeriodMs * JITTER)) {
      throw new Error("leader election needs lease duration > renew deadline > 1.2 × retry period");
    }
  }

  get leadership(): Leadership {
    return this.state;
  }

  /**
   * Whether this replica may act as the leader now: it leads, and renewed within the renew
   * deadline. A renewal that hangs must not leave it acting after its lease could have run out
   * for the others.
   */
  isLeading(): boolean {
    return this.state.leading !== null && performance.now() - this.lastRenewed <= this.renewDeadlineMs;
  }

  /** Told whenever this replica starts or stops leading, or another holder is seen. */
  onChange(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    if (this.timer || this.running) return;
    this.schedule(0);
  }

  /** Stops trying; a leader releases the Lease, so that another replica takes over at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    if (!this.state.leading) return;
    this.update({ leading: null, holder: null });
    await this.release().catch((error: unknown) => this.options.onError?.(error));
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.round().finally(() => (this.running = null));
    }, delayMs);
    this.timer.unref?.();
  }

  /** One try to acquire or renew, and what follows from it. */
  private async round(): Promise<void> {
    let lease: V1Lease | null = null;
    let mine = false;
    try {
      ({ lease, mine } = await this.tryAcquireOrRenew());
    } catch (error) {
      this.options.onError?.(error);
    }
    if (this.stopped) return;
    const now = performance.now();
    if (lease && mine) {
      this.lastRenewed = now;
      this.update({ leading: this.state.leading ?? { term: lease.spec?.leaseTransitions ?? 0 }, holder: this.options.identity });
    } else if (this.state.leading && (lease || now - this.lastRenewed > this.renewDeadlineMs)) {
      // Another holder was seen, or renewing has failed for the whole renew deadline.
      this.update({ leading: null, holder: lease ? holderOf(lease) : this.state.holder });
    } else if (lease) {
      this.update({ leading: this.state.leading, holder: holderOf(lease) });
    }
    const wait = this.state.leading ? this.retryPeriodMs : this.retryPeriodMs * (1 + Math.random() * (JITTER - 1));
    this.schedule(wait);
  }

  /** The Lease after this try, and whether this replica now holds it (its write went through). */
  private async tryAcquireOrRenew(): Promise<{ lease: V1Lease; mine: boolean }> {
    const { namespace, name, identity } = this.options;
    const now = new V1MicroTime();
    const durationSeconds = Math.ceil(this.leaseDurationMs / 1000);
    const current = await nullIfNotFound(() => this.api.readNamespacedLease({ namespace, name }));
    if (!current) {
      const created = await this.write(() => this.api.createNamespacedLease({
        namespace,
        body: { metadata: { name, namespace }, spec: { holderIdentity: identity, leaseDurationSeconds: durationSeconds, acquireTime: now, renewTime: now, leaseTransitions: 0 } },
      }));
      return { lease: this.observe(created ?? (await kube(() => this.api.readNamespacedLease({ namespace, name })))), mine: created !== null };
    }
    this.observe(current);
    const spec = current.spec ?? {};
    const holder = spec.holderIdentity ?? "";
    const held = holder !== "" && holder !== identity;
    const expiresAt = this.observed!.at + (spec.leaseDurationSeconds ?? durationSeconds) * 1000;
    if (held && performance.now() < expiresAt) return { lease: current, mine: false };
    const renewing = holder === identity;
    const transitions = spec.leaseTransitions ?? 0;
    const replaced = await this.write(() => this.api.replaceNamespacedLease({
      namespace,
      name,
      body: {
        metadata: { ...current.metadata, name, namespace },
        spec: {
          holderIdentity: identity,
          leaseDurationSeconds: durationSeconds,
          acquireTime: renewing && spec.acquireTime ? toMicroTime(spec.acquireTime) : now,
          renewTime: now,
          leaseTransitions: renewing ? transitions : transitions + 1,
        },
      },
    }));
    // Lost to another candidate: the next round reads who.
    return replaced ? { lease: this.observe(replaced), mine: true } : { lease: current, mine: false };
  }

  /** A write that another candidate may win: null when it did (the Lease changed, or was made, meanwhile). */
  private async write(call: () => Promise<V1Lease>): Promise<V1Lease | null> {
    try {
      return await kube(call);
    } catch (error) {
      if (error instanceof KubeApiError && (error.conflict || error.alreadyExists)) return null;
      throw error;
    }
  }

  private observe(lease: V1Lease): V1Lease {
    const spec = lease.spec ?? {};
    const record = JSON.stringify([spec.holderIdentity ?? "", spec.leaseDurationSeconds, spec.leaseTransitions, spec.renewTime ? new Date(spec.renewTime).getTime() : null]);
    if (this.observed?.record !== record) this.observed = { record, at: performance.now() };
    return lease;
  }

  private async release(): Promise<void> {
    const { namespace, name, identity } = this.options;
    const current = await nullIfNotFound(() => this.api.readNamespacedLease({ namespace, name }));
    if (!current || current.spec?.holderIdentity !== identity) return;
    const now = new V1MicroTime();
    await this.write(() => this.api.replaceNamespacedLease({
      namespace,
      name,
      body: { metadata: current.metadata, spec: { ...current.spec, holderIdentity: "", leaseDurationSeconds: 1, acquireTime: now, renewTime: now } },
    }));
  }

  private update(next: Leadership): void {
    const changed = (next.leading?.term ?? null) !== (this.state.leading?.term ?? null) || next.holder !== this.state.holder;
    this.state = next;
    if (!changed) return;
    for (const listener of this.listeners) {
      try {
        listener(next);
      } catch (error) {
        this.options.onError?.(error);
      }
    }
  }
}

const holderOf = (lease: V1Lease) => lease.spec?.holderIdentity || null;

/** A time read back from the API comes as a plain Date; written back it must keep microseconds' form. */
const toMicroTime = (time: Date) => new V1MicroTime(new Date(time).getTime());
