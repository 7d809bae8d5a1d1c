import { describe, expect, it } from "vitest";
import { sandboxDetailsSchema } from "./sandbox-details.ts";

// A sandbox's stored details as every reader gets them: each fact typed, or absent.

const PROTECTION = { wanted: true, protected: true, budgetName: "box-pdb", refusingEvictions: true, drainBlocked: false, message: null };
const MARKER = { podUid: "pod-1", writtenAt: "2026-11-30T09:00:00.000Z" };

describe("a sandbox's details, read back", () => {
  it("keeps every fact that fits its schema", () => {
    expect(sandboxDetailsSchema.parse({ protection: PROTECTION, stateMarker: MARKER })).toEqual({ protection: PROTECTION, stateMarker: MARKER });
  });

  it("reads a fact that no longer fits its schema as absent, and keeps the others", () => {
    expect(sandboxDetailsSchema.parse({ disruption: { reason: "Meteor", at: "yesterday" }, stateMarker: MARKER })).toEqual({ disruption: null, stateMarker: MARKER });
  });

  it("drops what no reader knows", () => {
    expect(sandboxDetailsSchema.parse({ disruptedAt: "2026-11-30T10:00:00.000Z" })).toEqual({});
  });
});
