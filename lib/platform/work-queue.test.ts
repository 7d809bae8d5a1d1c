import { afterEach, describe, expect, it, vi } from "vitest";
import { WorkQueue, type ReconcileResult, type WorkQueueOptions } from "./work-queue.ts";

// The reconcile queue's promises, each on a queue of its own whose reconcile records what it is
// given; time is faked where a backoff or a requeue-after is waited out.

type Key = { kind: "sandbox"; id: string };
const key = (id: string): Key => ({ kind: "sandbox", id });

function aQueue(reconcile: (key: Key) => Promise<ReconcileResult | void>, options: Partial<WorkQueueOptions<Key>> = {}) {
  return new WorkQueue<Key>({ identify: (one) => one.id, reconcile, ...options });
}

/** A reconcile that waits until released, recording each key it starts on. */
function gated() {
  const started: string[] = [];
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  return { started, release: () => release(), reconcile: async (one: Key) => void (started.push(one.id), await gate) };
}

afterEach(() => vi.useRealTimers());

/** Fake timeouts and clock; setImmediate stays real, as each pass waits for it behind I/O. */
const useFakeClock = () => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });

/** A turn of the event loop: what the queue waits for before a pass. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("a work queue", () => {
  it("reconciles a key added several times while queued once", async () => {
    const seen: string[] = [];
    const queue = aQueue(async (one) => void seen.push(one.id));
    queue.add(key("a"));
    queue.add(key("b"));
    queue.add(key("b"));
    await queue.idle();
    expect(seen).toEqual(["a", "b"]);
  });

  it("never reconciles one key twice at the same time, however many workers it has", async () => {
    const gate = gated();
    const queue = aQueue(gate.reconcile, { workers: 4 });
    queue.add(key("a"));
    queue.add(key("a"));
    await nextTurn();
    expect(gate.started).toEqual(["a"]);
    gate.release();
    await queue.idle();
  });

  it("reconciles a key again after the pass under way when it was added during it", async () => {
    const gate = gated();
    const queue = aQueue(gate.reconcile);
    queue.add(key("a"));
    await Promise.resolve();
    queue.add(key("a"));
    gate.release();
    await queue.idle();
    expect(gate.started).toEqual(["a", "a"]);
  });

  it("lets I/O in between two passes, even when every pass finishes within microtasks", async () => {
    const reconciled: string[] = [];
    const queue = aQueue(async (one) => void reconciled.push(one.id));
    for (const id of ["a", "b", "c"]) queue.add(key(id));
    let seenByIo: number | undefined;
    setImmediate(() => (seenByIo = reconciled.length));
    await queue.idle();
    expect(seenByIo).toBeLessThan(3);
  });

  it("retries a failed key after a backoff that doubles with each failure in a row", async () => {
    useFakeClock();
    const attempts: number[] = [];
    const queue = aQueue(async () => {
      attempts.push(Date.now());
      if (attempts.length < 4) throw new Error("the store is away");
    }, { baseDelayMs: 100, onError: () => {} });
    queue.add(key("a"));
    await vi.runAllTimersAsync();
    expect(attempts.slice(1).map((at, index) => at - attempts[index]!)).toEqual([100, 200, 400]);
  });

  it("forgets the failures of a key once it succeeds", async () => {
    useFakeClock();
    let failing = true;
    const queue = aQueue(async () => {
      if (failing) throw new Error("no");
    }, { onError: () => {} });
    queue.add(key("a"));
    await vi.advanceTimersByTimeAsync(50);
    failing = false;
    await vi.runAllTimersAsync();
    expect(queue.failuresOf(key("a"))).toBe(0);
  });

  it("caps the backoff", () => {
    const queue = aQueue(async () => {}, { baseDelayMs: 5, maxDelayMs: 1_000 });
    expect([queue.backoffMs(1), queue.backoffMs(2), queue.backoffMs(30)]).toEqual([5, 10, 1_000]);
  });

  it("looks at a key again when its reconcile asks to, after the time it asked for", async () => {
    useFakeClock();
    const passes: number[] = [];
    const queue = aQueue(async () => {
      passes.push(Date.now());
      return passes.length === 1 ? { requeueAfterMs: 30_000 } : undefined;
    });
    queue.add(key("a"));
    await vi.runAllTimersAsync();
    expect(passes.map((at) => at - passes[0]!)).toEqual([0, 30_000]);
  });

  it("keeps the earlier of two wake-ups of one key", async () => {
    useFakeClock();
    const passes: number[] = [];
    const began = Date.now();
    const queue = aQueue(async () => void passes.push(Date.now() - began));
    queue.addAfter(key("a"), 5_000);
    queue.addAfter(key("a"), 1_000);
    queue.addAfter(key("a"), 3_000);
    await vi.runAllTimersAsync();
    expect(passes).toEqual([1_000]);
  });

  it("does nothing once stopped, not even what was waiting", async () => {
    useFakeClock();
    const seen: string[] = [];
    const queue = aQueue(async (one) => void seen.push(one.id));
    queue.addAfter(key("a"), 1_000);
    queue.stop();
    queue.add(key("b"));
    await vi.runAllTimersAsync();
    expect(seen).toEqual([]);
  });
});
