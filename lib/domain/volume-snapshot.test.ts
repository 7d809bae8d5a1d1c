import { describe, expect, it } from "vitest";
import { defaultSnapshotName } from "./volume-snapshot.ts";

describe("a snapshot's default name", () => {
  it("is the claim's, then the UTC time to the second", () => {
    expect(defaultSnapshotName("workspace-alpha", new Date("2026-12-06T05:07:09.123Z"))).toBe("workspace-alpha-20261206-050709");
  });

  it("stays a valid name for a claim whose name is as long as names go", () => {
    expect(defaultSnapshotName("x".repeat(253), new Date("2026-12-06T05:07:09Z"))).toHaveLength(253);
  });
});
