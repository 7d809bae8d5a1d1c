import { describe, expect, it } from "vitest";
import type { SandboxStatus } from "../domain/sandbox-status.ts";
import { deriveStatus, type Observed, type ObservedPod } from "./derive-status.ts";

// One row per situation a person can find a sandbox in; fixtures are built by small helpers.

const now = new Date("2026-11-30T12:00:00Z");

function aStatus(overrides: Partial<SandboxStatus> = {}): SandboxStatus {
  return { phase: "Pending", reason: null, message: null, conditions: [], nodeName: null, podName: null, podUid: null, previousNodeName: null, previousPodUid: null, details: {}, ...overrides };
}

function aPod(overrides: { uid?: string; node?: string; ready?: boolean; phase?: string; scheduled?: { status: string; reason?: string; message?: string }; deleting?: boolean; status?: ObservedPod["status"] } = {}): ObservedPod {
  return {
    metadata: { name: "box", uid: overrides.uid ?? "pod-1", ...(overrides.deleting ? { deletionTimestamp: now.toISOString() } : {}) },
    spec: overrides.node === undefined ? { nodeName: "worker-1" } : overrides.node ? { nodeName: overrides.node } : {},
    status: {
      phase: overrides.phase ?? (overrides.ready ? "Running" : "Pending"),
      conditions: [
        ...(overrides.ready ? [{ type: "Ready", status: "True" }] : []),
        ...(overrides.scheduled ? [{ type: "PodScheduled", ...overrides.scheduled }] : []),
      ],
      ...overrides.status,
    },
  };
}

function observed(overrides: Partial<Observed> = {}): Observed {
  return { sandbox: { metadata: { name: "box" }, running: true }, pod: aPod({ ready: true }), claims: [{ metadata: { name: "workspace-box" }, status: { phase: "Bound" } }], events: [], deleted: false, ...overrides };
}

const verdictOf = (input: Observed, previous = aStatus()) => {
  const { phase, reason, message } = deriveStatus(input, previous, now);
  return { phase, reason, message };
};

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

  it("is in Error when the pod ended Failed (not replaced by the controller)", () => {
    expect(verdictOf(observed({ pod: aPod({ phase: "Failed", status: { phase: "Failed", reason: "Evicted", message: "The node was low on resource: memory." } }) })).reason).toBe("Evicted");
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
