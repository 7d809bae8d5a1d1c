import type { V1Node, V1Pod } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import type { SandboxStatus } from "../domain/sandbox-status.ts";
import { deriveStatus, type Observed } from "./derive-status.ts";
import { readDisruptionDetails } from "./disruption-details.ts";
import {
  aDisruption,
  aDisruptionTarget,
  aLostNode,
  aNode,
  anEvictedPod,
  aPod,
  aRecovery,
  aStatus,
  conditionOf,
  disruptedEarlier,
  fiveMinutesAgo,
  now,
  observed,
  verdictOf,
} from "./test-fixtures.ts";

// One row per situation a person can find a sandbox in; fixtures are built by small helpers.

/** A Ready sandbox's stored status: pod-1 on worker-1. */
const wasReady = aStatus({ phase: "Ready", podName: "box", podUid: "pod-1", nodeName: "worker-1" });

/** What local-path storage makes the scheduler say after a drain, in v1.32's words and in v1.33+'s. */
const PINNED_AFTER_CORDON_1_32 =
  "0/3 nodes are available: 1 node(s) were unschedulable, 2 node(s) had volume node affinity conflict. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.";
const PINNED_AFTER_CORDON_1_34 =
  "0/3 nodes are available: 1 node(s) were unschedulable, 2 node(s) didn't match PersistentVolume's node affinity. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.";

const details = (input: Observed, previous = wasReady) => readDisruptionDetails(deriveStatus(input, previous, now).details);

describe("deriveStatus", () => {
  it("is Ready when the pod is Ready", () => {
    expect(verdictOf(observed()).phase).toBe("Ready");
  });

  it("says a Pending claim holds it up, with the binder's reason", () => {
    const input = observed({
      pod: aPod({ node: "" }),
      claims: [{ metadata: { name: "workspace-box" }, status: { phase: "Pending" } }],
      events: [{ reason: "FailedBinding", message: "no persistent volumes available for this claim and no storage class is set", involvedObject: { kind: "PersistentVolumeClaim", name: "workspace-box" } }],
    });
    expect(verdictOf(input)).toEqual({ phase: "Provisioning", reason: "ClaimPending", message: "Claim workspace-box is Pending: no persistent volumes available for this claim and no storage class is set" });
  });

  it("passes on the scheduler's message when the pod is Unschedulable", () => {
    const message = "0/3 nodes are available: 3 node(s) were unschedulable.";
    expect(verdictOf(observed({ pod: aPod({ node: "", scheduled: { status: "False", reason: "Unschedulable", message } }) }))).toEqual({ phase: "Provisioning", reason: "Unschedulable", message });
  });

  it("says the image is being pulled", () => {
    const input = observed({ pod: aPod(), events: [{ reason: "Pulling", message: 'Pulling image "busybox"', involvedObject: { kind: "Pod", name: "box" } }] });
    expect(verdictOf(input).reason).toBe("PullingImage");
  });

  it("says the init container is seeding the workspace", () => {
    const input = observed({ pod: aPod({ status: { phase: "Pending", initContainerStatuses: [{ name: "workspace-init", state: { running: {} } }] } }) });
    expect(verdictOf(input).reason).toBe("InitContainerRunning");
  });

  it("is in Error when the container keeps crashing", () => {
    const input = observed({ pod: aPod({ status: { phase: "Running", containerStatuses: [{ name: "agent", restartCount: 4, state: { waiting: { reason: "CrashLoopBackOff" } } }] } }) });
    expect(verdictOf(input)).toEqual({ phase: "Error", reason: "ContainerCrashed", message: "Container agent keeps crashing (restarted 4 times)" });
  });

  it("is in Error when the pod ended Failed for a reason other than eviction (not replaced by the controller)", () => {
    const input = observed({ pod: aPod({ phase: "Failed", status: { phase: "Failed", reason: "UnexpectedAdmissionError", message: "Allocate failed due to out of devices" } }) });
    expect(verdictOf(input)).toEqual({ phase: "Error", reason: "UnexpectedAdmissionError", message: "Allocate failed due to out of devices" });
  });

  it("is Starting while the controller has not made the pod yet", () => {
    expect(verdictOf(observed({ pod: null })).phase).toBe("Starting");
  });

  it("is Stopping while a suspended sandbox's pod terminates, then Stopped", () => {
    const suspended = { metadata: { name: "box" }, running: false };
    expect([verdictOf(observed({ sandbox: suspended, pod: aPod({ ready: true, deleting: true }) })).phase, verdictOf(observed({ sandbox: suspended, pod: null })).phase]).toEqual(["Stopping", "Stopped"]);
  });

  it("is Deleting while the Sandbox has a deletionTimestamp", () => {
    expect(verdictOf(observed({ sandbox: { metadata: { name: "box", deletionTimestamp: now.toISOString() }, running: true } })).phase).toBe("Deleting");
  });

  it("is in Error, saying so, when the Sandbox vanished behind Berth's back", () => {
    expect(verdictOf(observed({ sandbox: null, pod: null })).reason).toBe("SandboxMissing");
  });

  it("remembers the previous pod and node when the pod is replaced", () => {
    const previous = aStatus({ podUid: "pod-1", nodeName: "worker-1" });
    const status = deriveStatus(observed({ pod: aPod({ uid: "pod-2", node: "worker-2", ready: true }) }), previous, now);
    expect([status.podUid, status.nodeName, status.previousPodUid, status.previousNodeName]).toEqual(["pod-2", "worker-2", "pod-1", "worker-1"]);
  });

  it("keeps the Ready condition's transition time while nothing changes", () => {
    const earlier = "2026-11-30T11:00:00.000Z";
    const previous = aStatus({ conditions: [{ type: "Ready", status: "True", lastTransitionTime: earlier }] });
    expect(deriveStatus(observed(), previous, now).conditions[0]?.lastTransitionTime).toBe(earlier);
  });
});

describe("deriveStatus: why the pod went (Disrupted)", () => {
  const rows: { situation: string; input: Observed; previous?: SandboxStatus; reason: string }[] = [
    { situation: "the pod is evicted through the Eviction API", input: observed({ pod: aPod({ ready: true, deleting: true, conditions: [aDisruptionTarget("EvictionByEvictionAPI", "Eviction API: evicting")] }) }), reason: "PodEvicted" },
    {
      situation: "the pod is evicted from a cordoned node (kubectl drain)",
      input: observed({ pod: aPod({ ready: true, deleting: true, conditions: [aDisruptionTarget("EvictionByEvictionAPI", "Eviction API: evicting")] }), node: aNode({ cordoned: true }) }),
      reason: "NodeDrained",
    },
    {
      situation: "the scheduler preempts the pod",
      input: observed({ pod: aPod({ ready: true, deleting: true, conditions: [aDisruptionTarget("PreemptionByScheduler", "default/urgent: preempting to accommodate a higher priority pod")] }) }),
      reason: "Preempted",
    },
    {
      situation: "the taint manager deletes the pod from a lost node (node not observed)",
      input: observed({ pod: aPod({ deleting: true, conditions: [aDisruptionTarget("DeletionByTaintManager", "Taint manager: deleting due to NoExecute taint")] }), node: undefined }),
      reason: "NodeLost",
    },
    { situation: "the pod's node stops reporting, before any deletion", input: observed({ pod: aPod({ ready: true }), node: aLostNode() }), reason: "NodeLost" },
    { situation: "the pod garbage collector deletes the pod of a vanished node", input: observed({ pod: aPod({ deleting: true, conditions: [aDisruptionTarget("DeletionByPodGC", "PodGC: node no longer exists")] }), node: null }), reason: "NodeLost" },
    { situation: "the kubelet evicts the pod under node pressure", input: observed({ pod: anEvictedPod() }), reason: "ResourcePressure" },
    { situation: "the pod is deleted with no disruption recorded", input: observed({ pod: aPod({ ready: true, deleting: true }) }), reason: "PodDeleted" },
    { situation: "the pod last seen is gone while the sandbox should run", input: observed({ pod: null }), previous: wasReady, reason: "PodDeleted" },
  ];
  for (const { situation, input, previous, reason } of rows) {
    it(`is Disrupted/${reason} when ${situation}`, () => {
      expect(verdictOf(input, previous)).toMatchObject({ phase: "Disrupted", reason });
    });
  }

  it("sets Disrupted=True with the reason on the conditions", () => {
    const status = deriveStatus(observed({ pod: anEvictedPod() }), wasReady, now);
    expect(conditionOf(status, "Disrupted")).toEqual(["True", "ResourcePressure"]);
  });

  it("says in the message that no checkpoint was taken", () => {
    const status = deriveStatus(observed({ pod: aPod({ ready: true, deleting: true, conditions: [aDisruptionTarget("EvictionByEvictionAPI", "Eviction API: evicting")] }) }), wasReady, now);
    expect(status.message).toBe(
      "The pod was evicted through the Eviction API (Eviction API: evicting). No checkpoint was taken before it went. The pod is terminating; agent-sandbox creates a replacement with the same name once it is gone.",
    );
  });

  it("says a pressure-evicted pod is not replaced, and how it is recovered", () => {
    expect(verdictOf(observed({ pod: anEvictedPod() })).message).toBe(
      "The kubelet on node worker-1 evicted the pod (The node was low on resource: memory. Threshold quantity: 100Mi, available: 42Mi.). No checkpoint was taken before it went. agent-sandbox does not replace a pod that ended Failed: Berth recovers the sandbox automatically if its disruption policy allows (autoRecoverFailedPods), otherwise recover it.",
    );
  });

  it("is Disrupted/ResourcePressure on a cluster that writes no DisruptionTarget for a pressure eviction", () => {
    expect(verdictOf(observed({ pod: anEvictedPod({ withDisruptionTarget: false }) }))).toMatchObject({ phase: "Disrupted", reason: "ResourcePressure" });
  });

  it("is not disrupted by a cordon alone: the pod keeps running", () => {
    expect(verdictOf(observed({ node: aNode({ cordoned: true }) })).phase).toBe("Ready");
  });

  it("ignores a node other than the pod's", () => {
    expect(verdictOf(observed({ node: aLostNode({ name: "worker-2" }) })).phase).toBe("Ready");
  });
});

describe("deriveStatus: what the recovery waits for (Recovering)", () => {
  const rows: { situation: string; input: Observed; previous: SandboxStatus; recovering: [string, string] }[] = [
    { situation: "the old pod is gone and no replacement exists yet", input: observed({ pod: null }), previous: disruptedEarlier(), recovering: ["True", "ReplacementPending"] },
    { situation: "the evicted pod is still terminating", input: observed({ pod: aPod({ deleting: true, conditions: [aDisruptionTarget("EvictionByEvictionAPI")] }) }), previous: wasReady, recovering: ["True", "ReplacementPending"] },
    { situation: "the lost node still holds the terminating pod", input: observed({ pod: aPod({ deleting: true, conditions: [aDisruptionTarget("DeletionByTaintManager")] }), node: aLostNode() }), previous: wasReady, recovering: ["True", "WaitingForNode"] },
    {
      situation: "the replacement is bound to a node that is down",
      input: observed({ pod: aPod({ uid: "pod-2", node: "worker-2" }), node: aLostNode({ name: "worker-2" }) }),
      previous: disruptedEarlier(),
      recovering: ["True", "WaitingForNode"],
    },
    {
      situation: "the scheduler cannot place the replacement",
      input: observed({ pod: aPod({ uid: "pod-2", node: "", scheduled: { status: "False", reason: "Unschedulable", message: "0/3 nodes are available: 3 Insufficient memory." } }) }),
      previous: disruptedEarlier(),
      recovering: ["True", "Unschedulable"],
    },
    {
      situation: "the workspace volume is pinned to the cordoned node (v1.32 wording)",
      input: observed({ pod: aPod({ uid: "pod-2", node: "", scheduled: { status: "False", reason: "Unschedulable", message: PINNED_AFTER_CORDON_1_32 } }), node: aNode({ cordoned: true }) }),
      previous: disruptedEarlier(),
      recovering: ["True", "VolumeNodeAffinityConflict"],
    },
    {
      situation: "the workspace volume is pinned to the cordoned node (v1.33+ wording)",
      input: observed({ pod: aPod({ uid: "pod-2", node: "", scheduled: { status: "False", reason: "Unschedulable", message: PINNED_AFTER_CORDON_1_34 } }), node: aNode({ cordoned: true }) }),
      previous: disruptedEarlier(),
      recovering: ["True", "VolumeNodeAffinityConflict"],
    },
    {
      situation: "the replacement's image is being pulled",
      input: observed({ pod: aPod({ uid: "pod-2", node: "worker-2" }), events: [{ reason: "Pulling", message: 'Pulling image "busybox"', involvedObject: { kind: "Pod", name: "box" } }] }),
      previous: disruptedEarlier(),
      recovering: ["True", "ImagePull"],
    },
    {
      situation: "the replacement's image cannot be pulled",
      input: observed({ pod: aPod({ uid: "pod-2", node: "worker-2", status: { phase: "Pending", containerStatuses: [{ name: "agent", state: { waiting: { reason: "ErrImagePull", message: "pull access denied" } } }] } }) }),
      previous: disruptedEarlier(),
      recovering: ["True", "ImagePull"],
    },
    {
      situation: "the replacement's init container is running",
      input: observed({ pod: aPod({ uid: "pod-2", node: "worker-2", status: { phase: "Pending", initContainerStatuses: [{ name: "workspace-init", state: { running: {} } }] } }) }),
      previous: disruptedEarlier(),
      recovering: ["True", "ReplacementStarting"],
    },
    {
      situation: "the replacement keeps crashing",
      input: observed({ pod: aPod({ uid: "pod-2", node: "worker-2", status: { phase: "Running", containerStatuses: [{ name: "agent", restartCount: 3, state: { waiting: { reason: "CrashLoopBackOff" } } }] } }) }),
      previous: disruptedEarlier(),
      recovering: ["True", "ReplacementFailing"],
    },
    { situation: "agent-sandbox will not replace the pressure-evicted pod", input: observed({ pod: anEvictedPod() }), previous: wasReady, recovering: ["False", "NotReplaced"] },
    { situation: "someone deleted the pressure-evicted pod to have it replaced", input: observed({ pod: anEvictedPod({ deleting: true }) }), previous: wasReady, recovering: ["True", "ReplacementPending"] },
  ];
  for (const { situation, input, previous, recovering } of rows) {
    it(`sets Recovering=${recovering.join("/")} when ${situation}`, () => {
      expect(conditionOf(deriveStatus(input, previous, now), "Recovering")).toEqual(recovering);
    });
  }

  it("is Disrupted, not Starting, while no replacement exists", () => {
    expect(verdictOf(observed({ pod: null }), disruptedEarlier()).phase).toBe("Disrupted");
  });

  it("is Recovering, not Provisioning, while the replacement starts", () => {
    expect(verdictOf(observed({ pod: aPod({ uid: "pod-2", node: "worker-2" }) }), disruptedEarlier())).toEqual({ phase: "Recovering", reason: "ReplacementStarting", message: "Waiting for the containers to become Ready" });
  });

  it("is Recovering when a replacement not yet Ready appears with no disruption seen before", () => {
    expect(verdictOf(observed({ pod: aPod({ uid: "pod-2", node: "worker-2" }) }), wasReady).phase).toBe("Recovering");
  });

  it("passes on the scheduler's message verbatim when the replacement is Unschedulable", () => {
    const message = "0/3 nodes are available: 3 Insufficient memory. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.";
    const input = observed({ pod: aPod({ uid: "pod-2", node: "", scheduled: { status: "False", reason: "Unschedulable", message } }) });
    expect(verdictOf(input, disruptedEarlier())).toEqual({ phase: "Recovering", reason: "Unschedulable", message });
  });

  it("says the workspace volume is pinned to the cordoned node, with the scheduler's message", () => {
    const input = observed({ pod: aPod({ uid: "pod-2", node: "", scheduled: { status: "False", reason: "Unschedulable", message: PINNED_AFTER_CORDON_1_32 } }), node: aNode({ cordoned: true }) });
    expect(verdictOf(input, disruptedEarlier())).toEqual({
      phase: "Recovering",
      reason: "VolumeNodeAffinityConflict",
      message: `The workspace volume is pinned to node worker-1, which is cordoned: the replacement can only run there and waits for it (uncordon or restore the node, or move the workspace). Scheduler: ${PINNED_AFTER_CORDON_1_32}`,
    });
  });

  it("is in Error while the replacement keeps crashing", () => {
    const input = observed({ pod: aPod({ uid: "pod-2", node: "worker-2", status: { phase: "Running", containerStatuses: [{ name: "agent", restartCount: 3, state: { waiting: { reason: "CrashLoopBackOff" } } }] } }) });
    expect(verdictOf(input, disruptedEarlier()).reason).toBe("ContainerCrashed");
  });

  it("is Recovering/WaitingForNode, not a new disruption, while the replacement is bound to a node that is down", () => {
    const input = observed({ pod: aPod({ uid: "pod-2", node: "worker-2" }), node: aLostNode({ name: "worker-2" }) });
    expect(verdictOf(input, disruptedEarlier())).toEqual({
      phase: "Recovering",
      reason: "WaitingForNode",
      message: "The replacement pod is bound to node worker-2, which is down (Ready=Unknown, NodeStatusUnknown: Kubelet stopped posting node status.); it starts when the node is back.",
    });
  });

  it("is not recovered by a replacement still marked Ready on a node that is down", () => {
    expect(verdictOf(observed({ pod: aPod({ uid: "pod-2", node: "worker-2", ready: true }), node: aLostNode({ name: "worker-2" }) }), disruptedEarlier()).phase).toBe("Recovering");
  });

  it("is Disrupted again, saying why, when the replacement is taken away before it is Ready", () => {
    const input = observed({ pod: aPod({ uid: "pod-2", node: "worker-2", deleting: true, conditions: [aDisruptionTarget("PreemptionByScheduler")] }), node: aNode({ name: "worker-2" }) });
    expect(verdictOf(input, disruptedEarlier()).message).toBe(
      "Node worker-1 is being drained. No checkpoint was taken before it went. The replacement pod is going too (Preempted: The scheduler preempted the pod to make room for a higher-priority pod). The pod is terminating; agent-sandbox creates a replacement with the same name once it is gone.",
    );
  });

  it("keeps the first disruption, and its time, when the replacement is taken away before it is Ready", () => {
    const input = observed({ pod: aPod({ uid: "pod-2", node: "worker-2", deleting: true, conditions: [aDisruptionTarget("PreemptionByScheduler")] }), node: aNode({ name: "worker-2" }) });
    expect(details(input, disruptedEarlier()).disruption).toEqual(aDisruption());
  });

  it("names the lost pod as the previous one once the replacement comes, though the status no longer named it", () => {
    const status = deriveStatus(observed({ pod: aPod({ uid: "pod-2", node: "worker-2" }) }), disruptedEarlier(), now);
    expect([status.previousPodUid, status.previousNodeName]).toEqual(["pod-1", "worker-1"]);
  });
});

describe("deriveStatus: a sandbox never Ready is still starting", () => {
  it("stays Provisioning while its first pod cannot be scheduled, though the status already names that pod", () => {
    const previous = aStatus({ phase: "Provisioning", podName: "box", podUid: "pod-1" });
    const input = observed({ pod: aPod({ node: "", scheduled: { status: "False", reason: "Unschedulable", message: "0/3 nodes are available: 3 Insufficient cpu." } }) });
    expect(verdictOf(input, previous)).toMatchObject({ phase: "Provisioning", reason: "Unschedulable" });
  });

  it("records no disruption while provisioning", () => {
    expect(deriveStatus(observed({ pod: aPod({ node: "" }) }), aStatus(), now).details).toEqual({});
  });

  it("has Disrupted=False and Recovering=False with reason NoDisruption", () => {
    const status = deriveStatus(observed(), aStatus(), now);
    expect([conditionOf(status, "Disrupted"), conditionOf(status, "Recovering")]).toEqual([
      ["False", "NoDisruption"],
      ["False", "NoDisruption"],
    ]);
  });
});

describe("deriveStatus: the disruption's details", () => {
  it("records the disruption: reason, when (the DisruptionTarget's transition), pod, node, no checkpoint", () => {
    const input = observed({ pod: aPod({ ready: true, deleting: true, conditions: [aDisruptionTarget("EvictionByEvictionAPI", "Eviction API: evicting")] }), node: aNode({ cordoned: true }) });
    expect(details(input).disruption).toEqual({
      reason: "NodeDrained",
      message: "Node worker-1 is being drained: it is cordoned and the pod was evicted (Eviction API: evicting). No checkpoint was taken before it went.",
      at: fiveMinutesAgo,
      podUid: "pod-1",
      nodeName: "worker-1",
      checkpointTaken: false,
      checkpointFinishedAt: null,
    });
  });

  describe("a checkpoint before it went", () => {
    const going = (ready = true) => aPod({ ready, deleting: true, conditions: [aDisruptionTarget("EvictionByEvictionAPI", "Eviction API: evicting")] });
    const drained = (lastCheckpoint: Observed["lastCheckpoint"]) => details(observed({ pod: going(), node: aNode({ cordoned: true }), lastCheckpoint })).disruption;
    const finishedAt = new Date("2026-11-30T11:54:58.250Z");

    it("is credited when it ran in the pod that went, and the message says when it finished", () => {
      expect(drained({ podUid: "pod-1", finishedAt })).toMatchObject({
        checkpointTaken: true,
        checkpointFinishedAt: "2026-11-30T11:54:58.250Z",
        message: expect.stringMatching(/The last successful checkpoint in this pod finished at 2026-11-30T11:54:58.250Z\.$/),
      });
    });

    it("is not credited when it ran in an earlier pod", () => {
      expect(drained({ podUid: "pod-0", finishedAt })?.checkpointTaken).toBe(false);
    });

    it("is not credited when Berth did not know the pod it ran in", () => {
      expect(drained({ podUid: null, finishedAt })?.checkpointTaken).toBe(false);
    });

    it("is credited to a pod that went between two looks, when it ran in that pod", () => {
      expect(details(observed({ pod: null, lastCheckpoint: { podUid: "pod-1", finishedAt } }), wasReady).disruption).toMatchObject({ reason: "PodDeleted", checkpointTaken: true, checkpointFinishedAt: finishedAt.toISOString() });
    });

    it("stays credited while the same pod goes, without looking it up again", () => {
      const first = deriveStatus(observed({ pod: going(), node: aNode({ cordoned: true }), lastCheckpoint: { podUid: "pod-1", finishedAt } }), wasReady, now);
      const later = deriveStatus(observed({ pod: going(false), node: aNode({ cordoned: true }) }), first, now);
      expect(readDisruptionDetails(later.details).disruption?.checkpointTaken).toBe(true);
    });
  });

  it("dates a deletion from when it was asked for: the deletionTimestamp less the grace period", () => {
    const input = observed({ pod: aPod({ ready: true, deleting: { at: "2026-11-30T11:59:30.000Z", graceSeconds: 30 } }) });
    expect(details(input).disruption?.at).toBe("2026-11-30T11:59:00.000Z");
  });

  it("dates a disruption the cluster gives no time for from when it is first seen", () => {
    expect(details(observed({ pod: null })).disruption?.at).toBe(now.toISOString());
  });

  it("dates a node loss from the node's Ready transition", () => {
    expect(details(observed({ node: aLostNode({ readySince: "2026-11-30T11:58:20.000Z" }) })).disruption?.at).toBe("2026-11-30T11:58:20.000Z");
  });

  it("keeps the first-seen time while the same pod goes on being disrupted", () => {
    const previous = aStatus({ ...wasReady, details: { disruption: aDisruption({ reason: "NodeLost", at: "2026-11-30T11:50:00.000Z" }), recovery: aRecovery({ reason: "WaitingForNode" }) } });
    const input = observed({ pod: aPod({ deleting: true, conditions: [aDisruptionTarget("DeletionByTaintManager", "Taint manager: deleting due to NoExecute taint", "2026-11-30T11:55:00.000Z")] }), node: aLostNode() });
    expect(details(input, previous).disruption?.at).toBe("2026-11-30T11:50:00.000Z");
  });

  it("keeps the disruption while the replacement is awaited, after the pod is gone", () => {
    expect(details(observed({ pod: null }), disruptedEarlier()).disruption).toEqual(aDisruption());
  });

  describe("a pod replaced between two looks, its replacement already Ready", () => {
    const replacedUnseen = () => observed({ pod: aPod({ uid: "pod-2", node: "worker-1", ready: true, created: "2026-11-30T11:59:50.000Z" }) });

    it("is Ready", () => {
      expect(verdictOf(replacedUnseen(), wasReady)).toEqual({ phase: "Ready", reason: null, message: null });
    });

    it("still tells of the pod that went, dated by its replacement's creation", () => {
      expect(details(replacedUnseen(), wasReady).disruption).toMatchObject({ reason: "PodDeleted", podUid: "pod-1", nodeName: "worker-1", at: "2026-11-30T11:59:50.000Z" });
    });

    it("counts it recovered in the replacement, from its creation to Ready", () => {
      expect(details(replacedUnseen(), wasReady).recovery).toMatchObject({ reason: "Recovered", replacementPodUid: "pod-2", durationMs: 10_000 });
    });
  });

  it("computes the recovery's duration when the replacement becomes Ready", () => {
    const recovery = details(observed({ pod: aPod({ uid: "pod-2", node: "worker-2", ready: true }) }), disruptedEarlier()).recovery;
    expect(recovery).toEqual({
      reason: "Recovered",
      message: "Pod pod-2 is Ready on node worker-2, 300 s after the disruption.",
      startedAt: fiveMinutesAgo,
      recoveredAt: now.toISOString(),
      durationMs: 300_000,
      replacementPodUid: "pod-2",
      replacementNodeName: "worker-2",
    });
  });

  it("measures recovery by the cluster's clock: to the replacement's Ready transition, not to when Berth looked", () => {
    const readyTwoMinutesAgo = aPod({ uid: "pod-2", node: "worker-2", status: { phase: "Running", conditions: [{ type: "Ready", status: "True", lastTransitionTime: "2026-11-30T11:58:00.000Z" }] } });
    expect(details(observed({ pod: readyTwoMinutesAgo }), disruptedEarlier()).recovery?.durationMs).toBe(180_000);
  });

  it("is Ready once the replacement is", () => {
    expect(verdictOf(observed({ pod: aPod({ uid: "pod-2", node: "worker-2", ready: true }) }), disruptedEarlier())).toEqual({ phase: "Ready", reason: null, message: null });
  });

  it("sets Disrupted=False and Recovering=False with reason Recovered once the replacement is Ready", () => {
    const status = deriveStatus(observed({ pod: aPod({ uid: "pod-2", node: "worker-2", ready: true }) }), disruptedEarlier(), now);
    expect([conditionOf(status, "Disrupted"), conditionOf(status, "Recovering")]).toEqual([
      ["False", "Recovered"],
      ["False", "Recovered"],
    ]);
  });

  it("keeps the last disruption and its recovery, unchanged, after the recovery", () => {
    const recoveredStatus = deriveStatus(observed({ pod: aPod({ uid: "pod-2", node: "worker-2", ready: true }) }), disruptedEarlier(), now);
    const anHourLater = new Date(now.getTime() + 3_600_000);
    expect(deriveStatus(observed({ pod: aPod({ uid: "pod-2", node: "worker-2", ready: true }) }), recoveredStatus, anHourLater).details).toEqual(recoveredStatus.details);
  });

  it("replaces the last disruption with the next one", () => {
    const recovered = aStatus({ ...wasReady, podUid: "pod-2", nodeName: "worker-2", details: { disruption: aDisruption(), recovery: aRecovery({ reason: "Recovered", recoveredAt: now.toISOString(), durationMs: 300_000 }) } });
    const input = observed({ pod: aPod({ uid: "pod-2", node: "worker-2", ready: true, deleting: true, conditions: [aDisruptionTarget("PreemptionByScheduler", undefined, "2026-11-30T11:59:00.000Z")] }), node: aNode({ name: "worker-2" }) });
    expect(details(input, recovered)).toMatchObject({ disruption: { reason: "Preempted", podUid: "pod-2", at: "2026-11-30T11:59:00.000Z" }, recovery: { reason: "ReplacementPending", recoveredAt: null } });
  });

  it("closes a recovery the user ends by stopping the sandbox", () => {
    const stopped = observed({ sandbox: { metadata: { name: "box" }, running: false }, pod: null });
    expect(details(stopped, disruptedEarlier()).recovery?.reason).toBe("Stopped");
  });

  it("starts afresh after a stop, not as a recovery", () => {
    const stoppedEarlier = disruptedEarlier({}, { reason: "Stopped" });
    expect(verdictOf(observed({ pod: aPod({ uid: "pod-2" }) }), stoppedEarlier).phase).toBe("Provisioning");
  });

  it("keeps the other facts in details", () => {
    const marker = { podUid: "pod-1", writtenAt: "2026-11-30T09:00:00.000Z" };
    expect(deriveStatus(observed({ pod: null }), aStatus({ ...wasReady, details: { stateMarker: marker } }), now).details.stateMarker).toEqual(marker);
  });

  it("keeps the Disrupted and Recovering conditions' transition times while nothing changes", () => {
    const first = deriveStatus(observed({ pod: null }), wasReady, now);
    const later = deriveStatus(observed({ pod: null }), first, new Date(now.getTime() + 60_000));
    expect(later.conditions.map((one) => one.lastTransitionTime)).toEqual(first.conditions.map((one) => one.lastTransitionTime));
  });
});

describe("deriveStatus: the client's own objects", () => {
  it("takes a V1Pod and a V1Node as the watch caches hold them, times as Date", () => {
    const pod: V1Pod = {
      metadata: { name: "box", uid: "pod-1", deletionTimestamp: new Date("2026-11-30T11:59:30Z"), deletionGracePeriodSeconds: 30 },
      spec: { nodeName: "worker-1", containers: [] },
      status: { phase: "Running", conditions: [{ type: "DisruptionTarget", status: "True", reason: "EvictionByEvictionAPI", lastTransitionTime: new Date("2026-11-30T11:59:00Z") }] },
    };
    const node: V1Node = { metadata: { name: "worker-1" }, spec: { unschedulable: true }, status: { conditions: [{ type: "Ready", status: "True" }] } };
    expect(details(observed({ pod, node })).disruption).toMatchObject({ reason: "NodeDrained", at: "2026-11-30T11:59:00.000Z" });
  });
});
