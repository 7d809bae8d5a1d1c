import type { V1Node, V1OwnerReference, V1PersistentVolume, V1PersistentVolumeClaim, V1Pod } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { previewMaintenance, type PreviewInputs, type PreviewSandbox } from "./maintenance-preview.ts";

// The drain preview, one pod situation per test.

const aNode = (name: string, overrides: { cordoned?: boolean } = {}): V1Node => ({
  metadata: { name },
  spec: overrides.cordoned ? { unschedulable: true } : {},
  status: { conditions: [{ type: "Ready", status: "True" }] },
});

function aPod(name: string, overrides: { claim?: string; owners?: V1OwnerReference[] } = {}): V1Pod {
  return {
    metadata: { name, namespace: "default", ownerReferences: overrides.owners ?? [{ apiVersion: "agents.x-k8s.io/v1beta1", kind: "Sandbox", name, uid: "u", controller: true }] },
    spec: { nodeName: "worker-1", containers: [], volumes: overrides.claim ? [{ name: "workspace", persistentVolumeClaim: { claimName: overrides.claim } }] : [] },
    status: { phase: "Running" },
  };
}

const aClaim = (name: string, volumeName: string): V1PersistentVolumeClaim => ({ metadata: { name, namespace: "default" }, spec: { volumeName } });
const aVolume = (name: string, pinnedTo: string | null): V1PersistentVolume => ({
  metadata: { name },
  spec: pinnedTo ? { nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: "kubernetes.io/hostname", operator: "In", values: [pinnedTo] }] }] } } } : {},
});
const aSandbox = (name: string, overrides: Partial<PreviewSandbox> = {}): PreviewSandbox => ({ id: `id-${name}`, name, workspaceBackend: "pvc", protected: false, ...overrides });

function inputs(overrides: Partial<PreviewInputs>): PreviewInputs {
  return { node: aNode("worker-1"), nodes: [aNode("worker-1"), aNode("worker-2")], pods: [], claims: [], persistentVolumes: [], sandboxOf: (pod) => aSandbox(pod.metadata?.name ?? ""), ...overrides };
}

const onlyPod = (overrides: Partial<PreviewInputs>) => previewMaintenance(inputs(overrides)).pods[0];

describe("the maintenance preview", () => {
  it("says a sandbox on portable storage moves to another node", () => {
    expect(onlyPod({ pods: [aPod("box", { claim: "workspace-box" })], claims: [aClaim("workspace-box", "pv-1")], persistentVolumes: [aVolume("pv-1", null)] })?.outcome).toBe("moves");
  });

  it("says a sandbox whose volume is pinned to the node waits for it", () => {
    expect(onlyPod({ pods: [aPod("box", { claim: "workspace-box" })], claims: [aClaim("workspace-box", "pv-1")], persistentVolumes: [aVolume("pv-1", "worker-1")] })?.outcome).toBe("waitsForNode");
  });

  it("says an ephemeral sandbox loses its workspace", () => {
    expect(onlyPod({ pods: [aPod("box")], sandboxOf: (pod) => aSandbox(pod.metadata!.name!, { workspaceBackend: "ephemeral" }) })?.outcome).toBe("losesWorkspace");
  });

  it("says a protected sandbox is checkpointed first", () => {
    expect(onlyPod({ pods: [aPod("box")], sandboxOf: (pod) => aSandbox(pod.metadata!.name!, { protected: true }) })?.checkpointedFirst).toBe(true);
  });

  it("says a sandbox cannot move when no other node is schedulable", () => {
    expect(onlyPod({ pods: [aPod("box")], nodes: [aNode("worker-1"), aNode("worker-2", { cordoned: true })] })?.outcome).toBe("cannotMove");
  });

  it("treats a pod that is not a sandbox as kubectl drain would: evicted", () => {
    const owners = [{ apiVersion: "apps/v1", kind: "ReplicaSet", name: "web-123", uid: "r", controller: true }];
    expect(onlyPod({ pods: [aPod("web-123-abc", { owners })], sandboxOf: () => null })?.outcome).toBe("evicted");
  });

  it("leaves a DaemonSet pod alone, as drain --ignore-daemonsets does", () => {
    const owners = [{ apiVersion: "apps/v1", kind: "DaemonSet", name: "logs", uid: "d", controller: true }];
    expect(onlyPod({ pods: [aPod("logs-x", { owners })], sandboxOf: () => null })?.outcome).toBe("ignored");
  });

  it("says a bare pod is refused without --force", () => {
    expect(onlyPod({ pods: [aPod("bare", { owners: [] })], sandboxOf: () => null })?.outcome).toBe("refused");
  });

  it("lists where moving pods can go", () => {
    expect(previewMaintenance(inputs({})).otherSchedulableNodes).toEqual(["worker-2"]);
  });
});
