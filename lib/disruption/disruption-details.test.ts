import { describe, expect, it } from "vitest";
import { isOpen, NO_DISRUPTION, readDisruptionDetails, writeDisruptionDetails } from "./disruption-details.ts";
import { aDisruption, aRecovery } from "./test-fixtures.ts";

const MARKER = { podUid: "pod-1", writtenAt: "2026-11-30T09:00:00.000Z" };

describe("readDisruptionDetails", () => {
  it("reads back what was written", () => {
    const history = { disruption: aDisruption(), recovery: aRecovery() };
    expect(readDisruptionDetails(writeDisruptionDetails({}, history))).toEqual(history);
  });

  it("finds no history in details without one", () => {
    expect(readDisruptionDetails({ stateMarker: MARKER })).toEqual(NO_DISRUPTION);
  });
});

describe("writeDisruptionDetails", () => {
  it("leaves details untouched when there is no disruption to write", () => {
    const details = { stateMarker: MARKER };
    expect(writeDisruptionDetails(details, NO_DISRUPTION)).toBe(details);
  });

  it("keeps the other facts beside the history", () => {
    expect(writeDisruptionDetails({ stateMarker: MARKER }, { disruption: aDisruption(), recovery: aRecovery() }).stateMarker).toEqual(MARKER);
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
