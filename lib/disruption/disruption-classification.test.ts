import { describe, expect, it } from "vitest";
import { classifyDisruption, deletionRequestedAt } from "./disruption-classification.ts";
import type { ObservedNode, ObservedPod } from "./observed.ts";
import { aDisruptionTarget, aLostNode, aNode, anEvictedPod, aPod, fiveMinutesAgo } from "./test-fixtures.ts";

// Which Kubernetes signal means which Disrupted reason, and which signals mean nothing at all.

describe("classifyDisruption", () => {
  const rows: { situation: string; pod: ObservedPod; node: ObservedNode | null; reason: string | null }[] = [
    { situation: "DisruptionTarget EvictionByEvictionAPI", pod: aPod({ deleting: true, conditions: [aDisruptionTarget("EvictionByEvictionAPI")] }), node: aNode(), reason: "PodEvicted" },
    { situation: "EvictionByEvictionAPI from a cordoned node", pod: aPod({ deleting: true, conditions: [aDisruptionTarget("EvictionByEvictionAPI")] }), node: aNode({ cordoned: true }), reason: "NodeDrained" },
    { situation: "EvictionByEvictionAPI, node not observed", pod: aPod({ deleting: true, conditions: [aDisruptionTarget("EvictionByEvictionAPI")] }), node: null, reason: "PodEvicted" },
    { situation: "DisruptionTarget PreemptionByScheduler", pod: aPod({ deleting: true, conditions: [aDisruptionTarget("PreemptionByScheduler")] }), node: aNode(), reason: "Preempted" },
    { situation: "DisruptionTarget DeletionByTaintManager", pod: aPod({ deleting: true, conditions: [aDisruptionTarget("DeletionByTaintManager")] }), node: null, reason: "NodeLost" },
    { situation: "DisruptionTarget DeletionByPodGC", pod: aPod({ deleting: true, conditions: [aDisruptionTarget("DeletionByPodGC")] }), node: null, reason: "NodeLost" },
    { situation: "DisruptionTarget TerminationByKubelet", pod: anEvictedPod(), node: aNode(), reason: "ResourcePressure" },
    { situation: "Failed/Evicted with no DisruptionTarget", pod: anEvictedPod({ withDisruptionTarget: false }), node: aNode(), reason: "ResourcePressure" },
    { situation: "a DisruptionTarget reason Berth does not know", pod: aPod({ deleting: true, conditions: [aDisruptionTarget("DeletionByFutureController")] }), node: aNode(), reason: "PodDeleted" },
    { situation: "the node's Ready condition is Unknown", pod: aPod({ ready: true }), node: aNode({ ready: "Unknown" }), reason: "NodeLost" },
    { situation: "the node's Ready condition is False", pod: aPod({ ready: true }), node: aNode({ ready: "False" }), reason: "NodeLost" },
    { situation: "a preemption on a lost node (the pod's own marker wins)", pod: aPod({ deleting: true, conditions: [aDisruptionTarget("PreemptionByScheduler")] }), node: aLostNode(), reason: "Preempted" },
    { situation: "a deletion with no DisruptionTarget", pod: aPod({ ready: true, deleting: true }), node: aNode(), reason: "PodDeleted" },
    { situation: "a Ready pod on a Ready node", pod: aPod({ ready: true }), node: aNode(), reason: null },
    { situation: "a pod on a cordoned node, not evicted", pod: aPod({ ready: true }), node: aNode({ cordoned: true }), reason: null },
    { situation: "a DisruptionTarget reset to False (the disruption did not happen)", pod: aPod({ ready: true, conditions: [{ type: "DisruptionTarget", status: "False" }] }), node: aNode(), reason: null },
    { situation: "a pod Failed for another reason", pod: aPod({ phase: "Failed", status: { phase: "Failed", reason: "UnexpectedAdmissionError" } }), node: aNode(), reason: null },
    { situation: "a node that has not reported its Ready condition yet", pod: aPod(), node: { metadata: { name: "worker-1" } }, reason: null },
  ];
  for (const { situation, pod, node, reason } of rows) {
    it(`${reason ?? "is no disruption"} for ${situation}`, () => {
      expect(classifyDisruption(pod, node)?.reason ?? null).toBe(reason);
    });
  }

  it("dates a DisruptionTarget from its transition", () => {
    expect(classifyDisruption(aPod({ deleting: true, conditions: [aDisruptionTarget("EvictionByEvictionAPI")] }), null)?.at).toBe(fiveMinutesAgo);
  });

  it("leaves the time open when the cluster gives none", () => {
    expect(classifyDisruption(anEvictedPod({ withDisruptionTarget: false }), null)?.at).toBeNull();
  });
});

describe("deletionRequestedAt", () => {
  it("is the deletionTimestamp less the grace period the API server added to it", () => {
    expect(deletionRequestedAt(aPod({ deleting: { at: "2026-11-30T12:00:30.000Z", graceSeconds: 30 } }))).toBe("2026-11-30T12:00:00.000Z");
  });

  it("is the deletionTimestamp itself when no grace period is recorded", () => {
    expect(deletionRequestedAt(aPod({ deleting: { at: "2026-11-30T12:00:30.000Z", graceSeconds: 0 } }))).toBe("2026-11-30T12:00:30.000Z");
  });

  it("is null for a pod not being deleted", () => {
    expect(deletionRequestedAt(aPod())).toBeNull();
  });
});
