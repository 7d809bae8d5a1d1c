import { describe, expect, it } from "vitest";
import { aVolume } from "../cli/testing/cli-fixtures.ts";
import { isUnused, orphanedSnapshots, unusedClaim } from "./clean-up.ts";
import type { VolumeSnapshot } from "./volume-snapshot.ts";

// Which claims and snapshots count as left over.

const sandbox = (deleted: boolean) => ({ id: "0b9e8f3c-2a41-4d6e-8f00-5e2c1d4b7a99", name: "agent-2", deleted });
const aSnapshot = (name: string, sourceClaim: string | null): VolumeSnapshot => ({ namespace: "team-a", name, sourceClaim, readyToUse: true, restoreSize: "1Gi", error: null, snapshotClass: null, createdAt: null, deleting: false });

describe("a claim left over", () => {
  it.each([
    ["mounted by a pod", { attachedTo: { pod: "p", nodeName: "n" }, sandbox: null }, false],
    ["of a live sandbox that is stopped", { attachedTo: null, sandbox: sandbox(false) }, false],
    ["of a deleted sandbox", { attachedTo: null, sandbox: sandbox(true) }, true],
    ["made for no sandbox", { attachedTo: null, sandbox: null }, true],
    ["being deleted", { attachedTo: null, sandbox: null, phase: "Terminating" }, false],
  ] as const)("%s: %s", (_story, overrides, unused) => {
    expect(isUnused(aVolume(overrides))).toBe(unused);
  });

  it("says which sandbox used it last, and when that sandbox went", () => {
    const claim = unusedClaim(aVolume({ attachedTo: null, sandbox: sandbox(true) }), new Date("2026-12-01T10:00:00Z"));
    expect(claim.lastSandbox).toEqual({ id: sandbox(true).id, name: "agent-2", deletedAt: "2026-12-01T10:00:00.000Z" });
  });
});

describe("a snapshot left over", () => {
  it("is one whose claim is gone", () => {
    const found = orphanedSnapshots("team-a", [aSnapshot("of-gone", "gone"), aSnapshot("of-here", "here"), aSnapshot("unsourced", null)], (name) => name === "here");
    expect(found.map((one) => one.name)).toEqual(["of-gone"]);
  });
});
