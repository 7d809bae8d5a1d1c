import { describe, expect, it } from "vitest";
import { formatAge, formatBytes, formatTimestamp } from "./format.ts";

const now = new Date("2026-11-30T12:00:00Z");
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);

describe("formatAge", () => {
  it.each([
    [0, "0s"],
    [45, "45s"],
    [119, "119s"],
    [120, "2m"],
    [179 * 60, "179m"],
    [3 * 3600, "3h"],
    [47 * 3600, "47h"],
    [2 * 86400, "2d"],
    [729 * 86400, "729d"],
    [3 * 365 * 86400, "3y"],
  ])("%i seconds old reads %s", (seconds, expected) => {
    expect(formatAge(ago(seconds), now)).toBe(expected);
  });

  it("never shows a negative age for a clock slightly ahead", () => {
    expect(formatAge(new Date(now.getTime() + 5000), now)).toBe("0s");
  });
});

describe("formatTimestamp", () => {
  it("prints UTC to the second", () => {
    expect(formatTimestamp(new Date("2026-11-30T08:05:09.123Z"))).toBe("2026-11-30 08:05:09 UTC");
  });
});

describe("formatBytes", () => {
  it.each([
    [0, "0 B"],
    [512, "512 B"],
    [4096, "4.0 KiB"],
    [1_288_490_189, "1.2 GiB"],
    [5 * 1024 ** 3, "5.0 GiB"],
    [3 * 1024 ** 6, "3072.0 PiB"],
  ])("%i bytes read %s", (bytes, expected) => {
    expect(formatBytes(bytes)).toBe(expected);
  });
});
