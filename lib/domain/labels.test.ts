import { describe, expect, it } from "vitest";
import { claimLabels, isLabelValue, sandboxLabels } from "./labels.ts";

describe("Berth labels", () => {
  it("marks a sandbox's objects as Berth's, with its id", () => {
    expect(sandboxLabels("berth.dev", "b1")).toEqual({ "berth.dev/managed-by": "berth", "berth.dev/sandbox-id": "b1" });
  });

  it("marks a claim with its sandbox and ownership", () => {
    expect(claimLabels("example.com", { id: "b1", name: "my-box" }, "retain")).toEqual({
      "example.com/managed-by": "berth",
      "example.com/sandbox-id": "b1",
      "example.com/sandbox-name": "my-box",
      "example.com/claim-ownership": "retain",
    });
  });
});

describe("isLabelValue", () => {
  it("accepts a UUID", () => {
    expect(isLabelValue("0b9c3a52-6f0e-4f7e-9d0a-3c1d2e4f5a6b")).toBe(true);
  });

  it("refuses a value with a slash or longer than 63 characters", () => {
    expect(isLabelValue("a/b")).toBe(false);
    expect(isLabelValue("a".repeat(64))).toBe(false);
  });
});
