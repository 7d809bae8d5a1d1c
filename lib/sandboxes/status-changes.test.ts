import { describe, expect, it } from "vitest";
import { aDisruption, aRecovery, aStatus, now } from "../disruption/test-fixtures.ts";
import type { DurableState } from "../domain/durable-state.ts";
import type { SandboxRecord } from "../domain/sandbox-record.ts";
import type { SandboxStatus } from "../domain/sandbox-status.ts";
import type { Handout } from "../domain/sandbox-handout.ts";
import { handoutEventOf, timelineEventsOf, verdictEventOf } from "./status-changes.ts";

// What the reconciler tells the timeline about a newly derived status.

function aRecord(status: Partial<SandboxStatus>): SandboxRecord {
  return { ...aStatus(status), id: "6f1c1f9e-0000-4000-8000-000000000001", name: "box", namespace: "default", spec: {}, workspaceBackend: "pvc", origin: "berth", provisionedAt: now, createdAt: now, updatedAt: now, deletedAt: null };
}

const recoveredInto = (podUid: string) => ({ recovery: aRecovery({ reason: "Recovered", replacementPodUid: podUid, recoveredAt: now.toISOString(), durationMs: 5000 }) });
const aVerdict = (podUid: string): DurableState => ({ verdict: "restored", why: "The marker came back", podUid, checkedAt: now.toISOString(), neverSurvives: [] });

describe("the timeline events of a phase change", () => {
  const told = (events: { type: string; reason: string }[]) => events.map((event) => [event.type, event.reason]);

  it("tells a replacement becoming Ready as Recovered", () => {
    const events = timelineEventsOf(aRecord({ phase: "Recovering", podUid: "pod-2" }), aStatus({ phase: "Ready", podUid: "pod-2", details: recoveredInto("pod-2") }), now);
    expect(told(events)).toEqual([["Recovery", "Recovered"]]);
  });

  it("does not tell the end of a later checkpoint as a second recovery", () => {
    const events = timelineEventsOf(aRecord({ phase: "Checkpointing", podUid: "pod-2" }), aStatus({ phase: "Ready", podUid: "pod-2", details: recoveredInto("pod-2") }), now);
    expect(told(events)).toEqual([["Lifecycle", "Ready"]]);
  });

  it("tells a pod replaced between two looks as its disruption, then its recovery", () => {
    const replaced = { disruption: aDisruption({ reason: "PodDeleted", podUid: "pod-1" }), ...recoveredInto("pod-2") };
    const events = timelineEventsOf(aRecord({ phase: "Ready", podUid: "pod-1" }), aStatus({ phase: "Ready", podUid: "pod-2", details: replaced }), now);
    expect(told(events)).toEqual([["Disruption", "PodDeleted"], ["Recovery", "Recovered"]]);
  });
});

describe("the durable-state verdict event", () => {
  it("tells a new verdict once, with its words", () => {
    const event = verdictEventOf(aRecord({ phase: "Ready" }), aStatus({ phase: "Ready", details: { durableState: aVerdict("pod-2") } }), now);
    expect([event?.type, event?.reason, event?.message]).toEqual(["DurableState", "DurableStateRestored", "The marker came back"]);
  });

  it("says nothing when the stored verdict is about the same pod", () => {
    const stored = aRecord({ phase: "Ready", details: { durableState: aVerdict("pod-2") } });
    expect(verdictEventOf(stored, aStatus({ phase: "Ready", details: { durableState: aVerdict("pod-2") } }), now)).toBeNull();
  });

  it("says nothing before there is a verdict", () => {
    expect(verdictEventOf(aRecord({ phase: "Recovering" }), aStatus({ phase: "Ready" }), now)).toBeNull();
  });
});

describe("the hand-out event", () => {
  const waiting: Handout = { pool: "python", claim: null, launchType: null };
  const handed = (launchType: Handout["launchType"]): Handout => ({ pool: null, claim: "mine", launchType });

  it("tells a pool member handed to a claim as a warm start, naming the pool", () => {
    const event = handoutEventOf(aRecord({ phase: "Ready", details: { handout: waiting } }), aStatus({ phase: "Ready", details: { handout: handed("warm") } }), now);
    expect([event?.reason, event?.message]).toEqual(["HandedOutWarm", "Handed to claim mine from warm pool python: a warm start, the sandbox was already running"]);
  });

  it("tells a sandbox started for a claim as a cold start", () => {
    const event = handoutEventOf(aRecord({ phase: "Pending" }), aStatus({ phase: "Pending", details: { handout: handed("cold") } }), now);
    expect(event?.reason).toBe("StartedCold");
  });

  it("waits for the launch type before telling", () => {
    expect(handoutEventOf(aRecord({ phase: "Ready", details: { handout: waiting } }), aStatus({ phase: "Ready", details: { handout: handed(null) } }), now)).toBeNull();
  });

  it("tells it once", () => {
    expect(handoutEventOf(aRecord({ phase: "Ready", details: { handout: handed("warm") } }), aStatus({ phase: "Ready", details: { handout: handed("warm") } }), now)).toBeNull();
  });
});
