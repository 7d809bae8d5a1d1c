import { describe, expect, it } from "vitest";
import { AdaptiveLimit } from "./adaptive-limit.ts";

// The pace of a run's steps, against a counter of throttled answers the test moves by hand.

/** Once every promise that can move has moved. */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A limit over steps that each end when the test says, counting how many run at once. */
function harness(most: number) {
  let throttled = 0;
  let running = 0;
  const ends: (() => void)[] = [];
  const limit = new AdaptiveLimit(most, () => throttled);
  const done: Promise<void>[] = [];
  return {
    limit,
    get running() {
      return running;
    },
    throttle(times = 1) {
      throttled += times;
    },
    async start(count: number) {
      for (let i = 0; i < count; i++) {
        done.push(
          limit.run(async () => {
            running++;
            await new Promise<void>((resolve) => ends.push(resolve));
            running--;
          }),
        );
      }
      await settled();
    },
    /** Ends the `count` steps that started first and are still running, and lets the waiting ones start. */
    async end(count = 1) {
      for (let i = 0; i < count; i++) ends.shift()!();
      await settled();
    },
    all: () => Promise.all(done),
  };
}

describe("an adaptive limit", () => {
  it("runs as many steps at once as its most, no more", async () => {
    const steps = harness(3);
    await steps.start(5);
    expect(steps.running).toBe(3);
  });

  it("halves when a step ends after the server throttled", async () => {
    const steps = harness(8);
    await steps.start(16);
    steps.throttle();
    await steps.end(8);
    expect(steps.running).toBe(4);
  });

  it("is cut once for a burst of throttles, however many steps saw it", async () => {
    const steps = harness(8);
    await steps.start(16);
    steps.throttle(3);
    await steps.end(2);
    expect(steps.running).toBe(6);
  });

  it("lets one more through for each step that ends with no throttle, up to its most", async () => {
    const steps = harness(4);
    await steps.start(20);
    steps.throttle();
    await steps.end(4);
    expect(steps.running).toBe(2);
    await steps.end(1);
    expect(steps.running).toBe(3);
    await steps.end(3);
    expect(steps.running).toBe(4);
  });

  it("never goes below one", async () => {
    const steps = harness(2);
    await steps.start(6);
    for (let i = 0; i < 3; i++) {
      steps.throttle();
      await steps.end(1);
    }
    expect(steps.running).toBe(1);
  });

  it("says how often the server throttled and how low it went", async () => {
    const steps = harness(8);
    await steps.start(8);
    steps.throttle(2);
    await steps.end(8);
    await steps.all();
    expect(steps.limit.pace).toEqual({ throttled: 2, fewestAtOnce: 4 });
  });
});
