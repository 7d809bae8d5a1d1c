import { describe, expect, it } from "vitest";
import { MAX_SAVE_DELAY_MS, MIN_SAVE_DELAY_MS, saveDelayMs, SAVE_BYTES_PER_SECOND } from "./save-pacing.ts";

describe("the wait before the simulated cluster saves its state", () => {
  it("is half a second for a small cluster", () => {
    expect(saveDelayMs(200_000)).toBe(MIN_SAVE_DELAY_MS);
  });

  it("grows with the state, so saving writes no more than its share per second", () => {
    const bytes = 30 * 1024 * 1024;
    expect(bytes / (saveDelayMs(bytes) / 1000)).toBeCloseTo(SAVE_BYTES_PER_SECOND, -3);
  });

  it("is never longer than half a minute", () => {
    expect(saveDelayMs(10 * 1024 * 1024 * 1024)).toBe(MAX_SAVE_DELAY_MS);
  });
});
