import { describe, expect, it } from "vitest";
import type { KubeObject } from "../../objects.ts";
import { BUILT_IN_PRINTERS } from "./built-in-printers.ts";

// What the built-in printers write in the cells kubectl shows, for the states people meet.

const NOW = new Date("2026-12-05T12:00:00Z");
const MINUTES_AGO = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000).toISOString();

function aPod(status: Record<string, unknown>, extra: Partial<KubeObject> = {}): KubeObject {
  return { apiVersion: "v1", kind: "Pod", metadata: { name: "box", creationTimestamp: MINUTES_AGO(5), ...extra.metadata }, spec: { containers: [{ name: "agent" }], nodeName: "worker-1" }, status };
}

const running = (restartCount = 0, lastState: Record<string, unknown> = {}) => ({ name: "agent", ready: true, restartCount, state: { running: {} }, lastState });
const cellsOf = (resource: string, object: KubeObject) => BUILT_IN_PRINTERS[resource]!.cells(object, NOW);
const podStatus = (pod: KubeObject) => cellsOf("/pods", pod).slice(1, 4);

describe("the pod printer", () => {
  it("shows a running, ready pod as 1/1 Running", () => {
    expect(podStatus(aPod({ phase: "Running", containerStatuses: [running()] }))).toEqual(["1/1", "Running", "0"]);
  });

  it("shows a container's waiting reason as the status", () => {
    expect(podStatus(aPod({ phase: "Running", containerStatuses: [{ name: "agent", restartCount: 3, state: { waiting: { reason: "CrashLoopBackOff" } } }] }))).toEqual(["0/1", "CrashLoopBackOff", "3"]);
  });

  it("says when the last restart was", () => {
    expect(podStatus(aPod({ phase: "Running", containerStatuses: [running(2, { terminated: { exitCode: 1, finishedAt: MINUTES_AGO(3) } })] }))[2]).toBe("2 (3m ago)");
  });

  it("shows a pod being deleted as Terminating", () => {
    expect(podStatus(aPod({ phase: "Running", containerStatuses: [running()] }, { metadata: { name: "box", deletionTimestamp: MINUTES_AGO(0) } }))[1]).toBe("Terminating");
  });

  it("shows a pod whose node was lost as Unknown while it is deleted", () => {
    expect(podStatus(aPod({ phase: "Running", reason: "NodeLost" }, { metadata: { name: "box", deletionTimestamp: MINUTES_AGO(0) } }))[1]).toBe("Unknown");
  });

  it("shows a failed container's exit code when it gave no reason", () => {
    expect(podStatus(aPod({ phase: "Failed", containerStatuses: [{ name: "agent", state: { terminated: { exitCode: 137 } } }] }))[1]).toBe("ExitCode:137");
  });

  it("shows an init container still running as Init:0/1", () => {
    const pod = aPod({ phase: "Pending", initContainerStatuses: [{ name: "prepare", state: { running: {} } }], containerStatuses: [{ name: "agent", state: { waiting: { reason: "PodInitializing" } } }] });
    (pod.spec as { initContainers: unknown[] }).initContainers = [{ name: "prepare" }];
    expect(podStatus(pod)[1]).toBe("Init:0/1");
  });

  it("marks a completed pod's row as completed", () => {
    expect(BUILT_IN_PRINTERS["/pods"]!.conditions!(aPod({ phase: "Succeeded" }))).toEqual([expect.objectContaining({ type: "Completed", status: "True" })]);
  });
});

describe("the node printer", () => {
  const aNode = (ready: string, unschedulable = false, labels: Record<string, string> = {}): KubeObject => ({
    apiVersion: "v1",
    kind: "Node",
    metadata: { name: "worker-1", labels },
    spec: { unschedulable },
    status: { conditions: [{ type: "Ready", status: ready }], nodeInfo: { kubeletVersion: "v1.34.0" } },
  });

  it("shows a cordoned node that is not ready as NotReady,SchedulingDisabled", () => {
    expect(cellsOf("/nodes", aNode("False", true))[1]).toBe("NotReady,SchedulingDisabled");
  });

  it("takes roles from the node-role labels", () => {
    expect(cellsOf("/nodes", aNode("True", false, { "node-role.kubernetes.io/control-plane": "", "node-role.kubernetes.io/worker": "" }))[2]).toBe("control-plane,worker");
  });
});

describe("the other printers", () => {
  it("shows a budget's unset bound as N/A", () => {
    const budget: KubeObject = { apiVersion: "policy/v1", kind: "PodDisruptionBudget", metadata: { name: "box" }, spec: { minAvailable: 1 }, status: { disruptionsAllowed: 0 } };
    expect(cellsOf("policy/poddisruptionbudgets", budget).slice(1, 4)).toEqual(["1", "N/A", 0]);
  });

  it("shows a claim's capacity and access modes only once it is bound", () => {
    const claim = (volumeName: string): KubeObject => ({ apiVersion: "v1", kind: "PersistentVolumeClaim", metadata: { name: "ws" }, spec: { volumeName, storageClassName: "portable" }, status: { phase: volumeName ? "Bound" : "Pending", capacity: { storage: "5Gi" }, accessModes: ["ReadWriteOnce", "ReadWriteMany"] } });
    expect([cellsOf("/persistentvolumeclaims", claim("")).slice(3, 5), cellsOf("/persistentvolumeclaims", claim("pv-1")).slice(3, 5)]).toEqual([["", ""], ["5Gi", "RWO,RWX"]]);
  });

  it("shows a network policy's pod selector as a label selector, an empty one as <none>", () => {
    const policy = (podSelector: Record<string, unknown>): KubeObject => ({ apiVersion: "networking.k8s.io/v1", kind: "NetworkPolicy", metadata: { name: "np" }, spec: { podSelector } });
    expect([cellsOf("networking.k8s.io/networkpolicies", policy({ matchLabels: { app: "agent" } }))[1], cellsOf("networking.k8s.io/networkpolicies", policy({}))[1]]).toEqual(["app=agent", "<none>"]);
  });

  it("counts a series' occurrences for an event", () => {
    const event: KubeObject = { apiVersion: "v1", kind: "Event", metadata: { name: "e" }, involvedObject: { kind: "Pod", name: "box" }, eventTime: MINUTES_AGO(10), series: { count: 4, lastObservedTime: MINUTES_AGO(1) }, type: "Warning", reason: "BackOff", message: " restarting " };
    expect(cellsOf("/events", event)).toEqual(["60s", "Warning", "BackOff", "pod/box", "", "", "restarting", "10m", 4, "e"]);
  });
});
