import { describe, expect, it } from "vitest";
import { humanDuration } from "./human-duration.ts";

const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;

describe("the AGE column, as kubectl writes it", () => {
  it.each([
    [0, "0s"],
    [119 * s, "119s"],
    [2 * m, "2m"],
    [5 * m + 30 * s, "5m30s"],
    [45 * m, "45m"],
    [3 * h + 5 * m, "3h5m"],
    [8 * h + 5 * m, "8h"],
    [47 * h, "47h"],
    [3 * d + 4 * h, "3d4h"],
    [10 * d, "10d"],
    [3 * 365 * d + 10 * d, "3y10d"],
    [9 * 365 * d, "9y"],
    [-5 * s, "<invalid>"],
  ])("%d ms is %s", (ms, written) => {
    expect(humanDuration(ms)).toBe(written);
  });
});
