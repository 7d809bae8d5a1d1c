import { describe, expect, it } from "vitest";
import { refs } from "../k8s-objects.ts";
import { PORTABLE_CLASS } from "../storage-topology.ts";
import { CLAIM_PROTECTION_FINALIZER, podUsesClaim } from "./claim-protection.ts";
import { createClaim, createPod, current, edit, mounting, volumeCluster } from "./test-support.ts";

describe("ClaimProtectionController", () => {
  it("adds the finalizer to a claim created without it", async () => {
    const cluster = volumeCluster({ defaultClass: PORTABLE_CLASS });
    cluster.store.create(refs.claims, {
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      metadata: { name: "bare", namespace: "default" },
      spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
      status: { phase: "Pending" },
    });
    await cluster.settle();
    expect(current(cluster.store, refs.claims, "bare", "default").metadata.finalizers).toEqual([CLAIM_PROTECTION_FINALIZER]);
  });

  it("holds a deleted claim while a running pod uses it, and lets it go when the pod has finished", async () => {
    const cluster = volumeCluster({ defaultClass: PORTABLE_CLASS });
    createClaim(cluster.store, "data");
    createPod(cluster.store, "app", mounting("data"));
    await cluster.settle(2_000);
    edit(cluster.store, refs.pods, current(cluster.store, refs.pods, "app", "default"), (pod) => {
      pod.status = { ...(pod.status as object), phase: "Running" };
    });
    cluster.store.delete(refs.claims, "default", "data");
    await cluster.settle(60_000);
    const claim = current(cluster.store, refs.claims, "data", "default");
    expect(claim.metadata.deletionTimestamp).toBeDefined();
    expect(claim.metadata.finalizers).toEqual([CLAIM_PROTECTION_FINALIZER]);
    expect((claim.status as { phase?: string }).phase).toBe("Bound");

    edit(cluster.store, refs.pods, current(cluster.store, refs.pods, "app", "default"), (pod) => {
      pod.status = { ...(pod.status as object), phase: "Succeeded" };
    });
    await cluster.settle();
    expect(cluster.store.peek(refs.claims, "default", "data")).toBeUndefined();
  });

  it("counts only scheduled pods that have not finished", () => {
    const pod = (nodeName: string | undefined, phase: string) => ({ metadata: { name: "p" }, spec: { nodeName, ...mounting("data") }, status: { phase } });
    expect(podUsesClaim(pod("worker-1", "Running"), "data")).toBe(true);
    expect(podUsesClaim(pod("worker-1", "Pending"), "data")).toBe(true);
    expect(podUsesClaim(pod(undefined, "Pending"), "data")).toBe(false);
    expect(podUsesClaim(pod("worker-1", "Failed"), "data")).toBe(false);
    expect(podUsesClaim(pod("worker-1", "Running"), "other")).toBe(false);
  });
});
