import { describe, expect, it } from "vitest";
import { defaultMoveTarget, moveFraction } from "./volume-move.ts";

describe("how far a copy has got", () => {
  it("is the new claim's bytes of the old one's while copying", () => {
    expect(moveFraction({ phase: "Copying", copiedBytes: 256, totalBytes: 1024 })).toBe(0.25);
  });

  it("is unknown while either figure is", () => {
    expect(moveFraction({ phase: "Copying", copiedBytes: null, totalBytes: 1024 })).toBeNull();
  });

  it("never passes whole, though the new file system counts blocks its own way", () => {
    expect(moveFraction({ phase: "Copying", copiedBytes: 2048, totalBytes: 1024 })).toBe(1);
  });

  it("is whole once the copy succeeded, whatever the kubelet last measured", () => {
    expect(moveFraction({ phase: "Succeeded", copiedBytes: 12, totalBytes: 1024 })).toBe(1);
  });
});

describe("the new claim's name when none is asked for", () => {
  it("is the old one's with -moved", () => {
    expect(defaultMoveTarget("workspace-agent-1")).toBe("workspace-agent-1-moved");
  });

  it("stays within the 253 characters a claim's name may have", () => {
    expect(defaultMoveTarget("a".repeat(253))).toHaveLength(253);
  });
});
