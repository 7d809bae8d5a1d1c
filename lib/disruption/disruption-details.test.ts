import { describe, expect, it } from "vitest";
import { isOpen, NO_DISRUPTION, readDisruptionDetails, writeDisruptionDetails } from "./disruption-details.ts";
import { aDisruption, aRecovery } from "./test-fixtures.ts";

describe("readDisruptionDetails", () => {
  it("reads back what was written", () => {
    const history = { disruption: aDisruption(), recovery: aRecovery() };
    expect(readDisruptionDetails(writeDisruptionDetails({}, history))).toEqual(history);
  });

  it("counts details that no longer fit the schema as no history", () => {
    expect(readDisruptionDetails({ disruption: { reason: "Meteor", at: "yesterday" } })).toEqual(NO_DISRUPTION);
  });

  it("finds no history in details without one", () => {
    expect(readDisruptionDetails({ verdict: "kept" })).toEqual(NO_DISRUPTION);
  });
});

describe("writeDisruptionDetails", () => {
  it("leaves details untouched when there is no disruption to write", () => {
    const details = { verdict: "kept" };
    expect(writeDisruptionDetails(details, NO_DISRUPTION)).toBe(details);
  });

  it("keeps the other facts beside the history", () => {
    expect(writeDisruptionDetails({ verdict: "kept" }, { disruption: aDisruption(), recovery: aRecovery() }).verdict).toBe("kept");
  });
});

describe("isOpen", () => {
  const rows = [
    { situation: "no disruption", history: NO_DISRUPTION, open: false },
    { situation: "a recovery under way", history: { disruption: aDisruption(), recovery: aRecovery() }, open: true },
    { situation: "a Failed pod nobody replaces yet", history: { disruption: aDisruption({ reason: "ResourcePressure" }), recovery: aRecovery({ reason: "NotReplaced" }) }, open: true },
    { situation: "a recovered sandbox", history: { disruption: aDisruption(), recovery: aRecovery({ reason: "Recovered", recoveredAt: "2026-11-30T12:00:00.000Z", durationMs: 300_000 }) }, open: false },
    { situation: "a sandbox stopped before it recovered", history: { disruption: aDisruption(), recovery: aRecovery({ reason: "Stopped" }) }, open: false },
  ];
  for (const { situation, history, open } of rows) {
    it(`is ${open} for ${situation}`, () => {
      expect(isOpen(history)).toBe(open);
    });
  }
});
