import { describe, expect, it } from "vitest";
import { durableStateVerdict, type MarkerReading } from "./durable-state.ts";

const now = new Date("2026-12-01T12:00:00Z");
const found = (sandboxId = "sb-1"): MarkerReading => ({ kind: "found", marker: { sandboxId, podUid: "pod-1", writtenAt: "2026-12-01T11:00:00.000Z", writtenOn: "ready" } });
const verdictOf = (reading: MarkerReading, backend: "pvc" | "ephemeral" = "pvc") => durableStateVerdict({ sandboxId: "sb-1", backend, reading, podUid: "pod-2", now }).verdict;

describe("the durable-state verdict", () => {
  it("is restored when the replacement reads back the marker", () => {
    expect(verdictOf(found())).toBe("restored");
  });

  it("is lost when the marker is gone from the claim", () => {
    expect(verdictOf({ kind: "missing" })).toBe("lost");
  });

  it("is lost when the marker belongs to another sandbox (a reused claim was emptied and refilled)", () => {
    expect(verdictOf(found("sb-other"))).toBe("lost");
  });

  it("is lost for an ephemeral workspace, whatever is read", () => {
    expect(verdictOf(found(), "ephemeral")).toBe("lost");
  });

  it("is unverifiable when the marker cannot be read", () => {
    expect(verdictOf({ kind: "unreadable", why: "no shell in the image" })).toBe("unverifiable");
  });

  it("always says what never survives", () => {
    expect(durableStateVerdict({ sandboxId: "sb-1", backend: "pvc", reading: found(), podUid: "pod-2", now }).neverSurvives).toContain("running processes");
  });
});
