import { OperationInFlightError, type OperationKind, type OperationRepository, type Store } from "../store/index.ts";
import { SandboxStateError } from "./lifecycle-errors.ts";

// Operations running on sandboxes, one registry per kind: creates and deletes (the reconciler
// leaves those sandboxes alone while they are half-made or half-gone on purpose, and looks again
// as soon as each settles; a record whose create is in flight nowhere and never finished was
// interrupted, and the reconciler undoes it), and checkpoints (the sandbox shows Checkpointing
// and refuses exec while one runs).
//
// With a store behind it (`shared`), an operation is registered there for every replica to see:
// a delete through one replica is never taken by another for a deletion outside Berth. It is
// renewed while it runs; one whose replica died stops counting once it has gone unrenewed for
// STALE_AFTER_MS. Without one (scripts, tests of one action), only this process knows.

type Listener = (id: string) => void;

export const RENEW_EVERY_MS = 10_000;
export const STALE_AFTER_MS = 30_000;

export interface SharedOperations {
  kind: OperationKind;
  /** This replica, as the store names who runs an operation. */
  replica: string;
  operations: Pick<OperationRepository, "begin" | "renew" | "end" | "inFlight" | "allInFlight" | "onSettled">;
  now?: () => Date;
  onError?: (error: unknown) => void;
}

export class OperationsInFlight {
  private readonly ids = new Set<string>();
  private readonly listeners = new Set<Listener>();
  private readonly began = new Set<Listener>();
  private renewal: NodeJS.Timeout | undefined;

  constructor(private readonly shared?: SharedOperations) {}

  /**
   * Runs the operation on the sandbox with this id, registered for as long as it runs; refused
   * (OperationInFlightError) while another replica runs one of the same kind on it.
   */
  async run<T>(id: string, operation: () => Promise<T>): Promise<T> {
    const shared = this.shared;
    if (shared) {
      const now = this.now();
      await shared.operations.begin({ targetId: id, kind: shared.kind, replica: shared.replica }, now, staleSince(now)).catch((error: unknown) => {
        if (!(error instanceof OperationInFlightError)) throw error;
        const what = shared.kind === "checkpoint" ? "a checkpoint" : "a create or delete";
        throw new SandboxStateError(`Another Berth replica (${error.operation.replica}) has been running ${what} of this sandbox since ${error.operation.startedAt.toISOString()}: wait for it to end.`);
      });
      this.renewWhileRunning();
    }
    this.ids.add(id);
    for (const listener of this.began) listener(id);
    try {
      return await operation();
    } finally {
      this.ids.delete(id);
      if (!shared) this.settled(id);
      else {
        if (this.ids.size === 0) clearInterval(this.renewal);
        // The store tells every replica, this one included; if it cannot, this one is told here.
        await shared.operations.end({ targetId: id, kind: shared.kind, replica: shared.replica }).catch((error: unknown) => {
          shared.onError?.(error);
          this.settled(id);
        });
      }
    }
  }

  /** Whether this process runs one on the sandbox. */
  has(id: string): boolean {
    return this.ids.has(id);
  }

  /** Whether any replica runs one on the sandbox, this one included. */
  async anywhere(id: string): Promise<boolean> {
    if (this.ids.has(id)) return true;
    if (!this.shared) return false;
    return (await this.shared.operations.inFlight(id, this.shared.kind, staleSince(this.now()))) !== null;
  }

  /** The sandboxes any replica runs one on. */
  async runningAnywhere(): Promise<Set<string>> {
    const here = new Set(this.ids);
    if (!this.shared) return here;
    for (const operation of await this.shared.operations.allInFlight(this.shared.kind, staleSince(this.now()))) here.add(operation.targetId);
    return here;
  }

  /** Told the sandbox's id when an operation on it ends here, or (with a store) in any replica. */
  onSettled(listener: Listener): () => void {
    this.listeners.add(listener);
    const stopHearing = this.shared?.operations.onSettled((id) => {
      if (id !== null) listener(id);
    });
    return () => {
      this.listeners.delete(listener);
      stopHearing?.();
    };
  }

  /** Told when an operation begins here and when it settles here or elsewhere. */
  onChange(listener: Listener): () => void {
    this.began.add(listener);
    const stopHearingSettled = this.onSettled(listener);
    return () => {
      this.began.delete(listener);
      stopHearingSettled();
    };
  }

  private settled(id: string): void {
    for (const listener of this.listeners) listener(id);
  }

  private renewWhileRunning(): void {
    const shared = this.shared!;
    if (this.ids.size > 0) return;
    clearInterval(this.renewal);
    this.renewal = setInterval(() => void shared.operations.renew(shared.replica, this.now()).catch((error: unknown) => shared.onError?.(error)), RENEW_EVERY_MS);
    this.renewal.unref?.();
  }

  private now(): Date {
    return (this.shared?.now ?? (() => new Date()))();
  }
}

const staleSince = (now: Date) => new Date(now.getTime() - STALE_AFTER_MS);

/**
 * A Berth process's two registries on its store: kept in the store for every replica to see when
 * replicas can share it (PostgreSQL), this process's own on an embedded store, whose data
 * directory one process holds (its lock says so): there, asking the store at every reconcile
 * only took its time. `shareThroughStore` overrides, for tests of replicas on one embedded store.
 */
export function operationsInFlightOn(
  store: Pick<Store, "kind" | "operations">,
  replica: string,
  options: { shareThroughStore?: boolean; onError?: (error: unknown) => void } = {},
): { inFlight: OperationsInFlight; checkpointing: OperationsInFlight } {
  const shared = (options.shareThroughStore ?? store.kind === "postgresql") ? { replica, operations: store.operations, onError: options.onError } : undefined;
  return { inFlight: new OperationsInFlight(shared && { ...shared, kind: "lifecycle" }), checkpointing: new OperationsInFlight(shared && { ...shared, kind: "checkpoint" }) };
}

/** For callers with no reconciler to tell (scripts, benchmarks, tests of one action). */
export const untracked = { run: <T>(_id: string, operation: () => Promise<T>) => operation() };
