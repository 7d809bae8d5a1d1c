import type { V1PersistentVolume, V1PersistentVolumeClaim, V1Pod } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { parseLabelSelector } from "../domain/label-selector.ts";
import { describeVolumes, pageOfVolumes, type SandboxRef, type VolumeInputs } from "./describe-volumes.ts";

// The volumes view, one situation per test: whose a claim is, how it is kept, and whether
// anything uses it.

const LIVE: SandboxRef = { id: "6f1c1f9e-0000-4000-8000-000000000001", name: "box", deleted: false };
const GONE: SandboxRef = { id: "6f1c1f9e-0000-4000-8000-000000000002", name: "old", deleted: true };

function aClaim(name: string, overrides: { labels?: Record<string, string>; sandboxOwner?: string; phase?: string; volumeName?: string } = {}): V1PersistentVolumeClaim {
  return {
    metadata: {
      name,
      namespace: "default",
      labels: overrides.labels,
      ownerReferences: overrides.sandboxOwner ? [{ apiVersion: "agents.x-k8s.io/v1beta1", kind: "Sandbox", name: overrides.sandboxOwner, uid: "u", controller: true }] : undefined,
    },
    spec: { accessModes: ["ReadWriteOnce"], storageClassName: "local-path", resources: { requests: { storage: "2Gi" } }, volumeName: overrides.volumeName },
    status: { phase: overrides.phase ?? "Bound" },
  };
}

const labelledFor = (sandbox: SandboxRef, ownership: string) => ({ "berth.dev/managed-by": "berth", "berth.dev/sandbox-id": sandbox.id, "berth.dev/claim-ownership": ownership });

function aPodMounting(name: string, claim: string): V1Pod {
  return { metadata: { name, namespace: "default" }, spec: { nodeName: "worker-1", containers: [], volumes: [{ name: "workspace", persistentVolumeClaim: { claimName: claim } }] }, status: { phase: "Running" } };
}

function inputs(overrides: Partial<VolumeInputs>): VolumeInputs {
  return {
    claims: [],
    pods: [],
    persistentVolumes: [],
    claimEvents: [],
    labelPrefix: "berth.dev",
    sandboxById: (id) => [LIVE, GONE].find((sandbox) => sandbox.id === id) ?? null,
    liveSandboxByName: (_namespace, name) => (name === LIVE.name ? LIVE : null),
    ...overrides,
  };
}

const only = (overrides: Partial<VolumeInputs>) => describeVolumes(inputs(overrides))[0];

describe("the volumes view", () => {
  it("shows the controller's template claim as the live sandbox's attached workspace", () => {
    const volume = only({ claims: [aClaim("workspace-box", { sandboxOwner: "box" })], pods: [aPodMounting("box", "workspace-box")] });
    expect([volume?.sandbox?.name, volume?.ownership, volume?.usage, volume?.state]).toEqual(["box", "template", "workspace", "attached"]);
  });

  it("shows a retained claim of a deleted sandbox as detached, ready to resume from", () => {
    const volume = only({ claims: [aClaim("kept", { labels: labelledFor(GONE, "retain") })] });
    expect([volume?.sandbox?.deleted, volume?.state]).toEqual([true, "detached"]);
  });

  it("shows a delete claim whose sandbox is gone as orphaned", () => {
    expect(only({ claims: [aClaim("left", { labels: labelledFor(GONE, "delete") })] })?.state).toBe("orphaned");
  });

  it("shows a claim labelled for a sandbox Berth has no record of as orphaned", () => {
    const unknown = { ...GONE, id: "6f1c1f9e-0000-4000-8000-00000000ffff" };
    expect(only({ claims: [aClaim("stray", { labels: labelledFor(unknown, "retain") })] })?.state).toBe("orphaned");
  });

  it("shows an existing claim by what mounts it", () => {
    const volume = only({ claims: [aClaim("shared-data")], pods: [aPodMounting("box", "shared-data")] });
    expect([volume?.ownership, volume?.sandbox?.name]).toEqual(["existing", "box"]);
  });

  it("shows a claim made on the Volumes page as Berth's, free, kept as its label says", () => {
    const volume = only({ claims: [aClaim("datasets", { labels: { "berth.dev/managed-by": "berth", "berth.dev/claim-ownership": "existing" } })] });
    expect([volume?.sandbox, volume?.ownership, volume?.state]).toEqual([null, "existing", "detached"]);
  });

  it("shows a claim made on the Volumes page by the sandbox that mounts it", () => {
    const volume = only({ claims: [aClaim("datasets", { labels: { "berth.dev/managed-by": "berth", "berth.dev/claim-ownership": "retain" } })], pods: [aPodMounting("box", "datasets")] });
    expect([volume?.sandbox?.name, volume?.ownership, volume?.state]).toEqual(["box", "retain", "attached"]);
  });

  it("leaves out claims that are none of Berth's business", () => {
    expect(describeVolumes(inputs({ claims: [aClaim("postgres-data")] }))).toEqual([]);
  });

  it("says why a Pending claim is not bound, in the binder's words", () => {
    const claim = aClaim("workspace-box", { sandboxOwner: "box", phase: "Pending" });
    const event = { metadata: {}, involvedObject: { kind: "PersistentVolumeClaim", namespace: "default", name: "workspace-box" }, reason: "FailedBinding", message: "no persistent volumes available for this claim and no storage class is set" };
    expect(only({ claims: [claim], claimEvents: [event] })?.pendingReason).toBe(event.message);
  });

  it("names the node a node-local volume pins its claim to", () => {
    const volume: V1PersistentVolume = {
      metadata: { name: "pvc-1" },
      spec: { nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: "kubernetes.io/hostname", operator: "In", values: ["worker-2"] }] }] } } },
    };
    expect(only({ claims: [aClaim("workspace-box", { sandboxOwner: "box", volumeName: "pvc-1" })], persistentVolumes: [volume] })?.pinnedToNode).toBe("worker-2");
  });

  it("shows the volume a claim is bound to, with what becomes of it after the claim", () => {
    const volume: V1PersistentVolume = { metadata: { name: "pvc-1" }, spec: { persistentVolumeReclaimPolicy: "Retain", capacity: { storage: "2Gi" } }, status: { phase: "Bound" } };
    expect(only({ claims: [aClaim("workspace-box", { sandboxOwner: "box", volumeName: "pvc-1" })], persistentVolumes: [volume] })?.persistentVolume).toEqual({ name: "pvc-1", reclaimPolicy: "Retain", phase: "Bound", capacity: "2Gi" });
  });

  it("pages by namespace and name, continuing after the cursor", () => {
    const volumes = describeVolumes(inputs({ claims: ["a", "b", "c"].map((name) => aClaim(name, { labels: labelledFor(LIVE, "retain") })) }));
    const first = pageOfVolumes(volumes, { limit: 2 });
    expect(pageOfVolumes(volumes, { limit: 2, cursor: first.nextCursor! }).items.map((volume) => volume.name)).toEqual(["c"]);
  });

  it("keeps only the claims a label selector picks, by any of their labels", () => {
    const volumes = describeVolumes(inputs({
      claims: [aClaim("kept", { labels: labelledFor(LIVE, "retain") }), aClaim("dropped", { labels: labelledFor(LIVE, "delete") })],
    }));
    const picked = pageOfVolumes(volumes, { limit: 10, labelSelector: parseLabelSelector("berth.dev/claim-ownership=retain") });
    expect(picked.items.map((volume) => volume.name)).toEqual(["kept"]);
  });
});
