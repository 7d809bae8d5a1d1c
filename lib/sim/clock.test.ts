import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ScaledClock } from "./clock";

describe("ScaledClock", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date("2026-01-01T00:00:00Z") });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("does not fire a timer whose host timer woke before the wall clock reached it", () => {
    const clock = new ScaledClock();
    const fired = vi.fn();
    clock.after(5_000, fired);
    vi.setSystemTime(Date.now() - 2);
    vi.advanceTimersByTime(5_000);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(2);
    expect(fired).toHaveBeenCalledOnce();
  });

  it("fires a scaled timer once the simulated delay has passed", () => {
    const clock = new ScaledClock(60);
    const start = clock.now().getTime();
    let firedAt = 0;
    clock.after(60_000, () => (firedAt = clock.now().getTime()));
    vi.advanceTimersByTime(1_000);
    expect(firedAt - start).toBe(60_000);
  });

  it("cancels a timer that is re-armed after waking early", () => {
    const clock = new ScaledClock();
    const fired = vi.fn();
    const cancel = clock.after(1_000, fired);
    vi.setSystemTime(Date.now() - 5);
    vi.advanceTimersByTime(1_000);
    cancel();
    vi.advanceTimersByTime(10);
    expect(fired).not.toHaveBeenCalled();
  });
});
