import { describe, expect, it } from "vitest";
import { refs } from "../k8s-objects.ts";
import type { StoredObject } from "../objects.ts";
import { LOCAL_PATH_CLASS, PORTABLE_CLASS, PORTABLE_DRIVER, PROVISIONERS } from "../storage-topology.ts";
import { SELECTED_NODE_ANNOTATION } from "./scheduler.ts";
import { createClaim, createPod, current, edit, eventsFor, mounting, volumeCluster } from "./test-support.ts";
import { admitClaimResize, volumeMismatch } from "./volume-binder.ts";

const spec = (object: StoredObject) => object.spec as Record<string, unknown>;
const status = (object: StoredObject) => object.status as Record<string, unknown>;
const volumeOf = (cluster: ReturnType<typeof volumeCluster>, claimName: string) =>
  current(cluster.store, refs.volumes, String(spec(current(cluster.store, refs.claims, claimName, "default")).volumeName));

describe("VolumeBinder", () => {
  it("leaves a claim without a class Pending with FailedBinding when there is no default class", async () => {
    const cluster = volumeCluster({ defaultClass: null });
    createClaim(cluster.store, "data");
    await cluster.settle(20_000);
    expect(status(current(cluster.store, refs.claims, "data", "default")).phase).toBe("Pending");
    expect(eventsFor(cluster.store, "data")).toEqual([
      { type: "Normal", reason: "FailedBinding", message: "no persistent volumes available for this claim and no storage class is set", source: "persistentvolume-controller", count: 2 },
    ]);
  });

  it("provisions an Immediate claim at once and binds both ways", async () => {
    const cluster = volumeCluster({ defaultClass: PORTABLE_CLASS });
    const created = createClaim(cluster.store, "data", { resources: { requests: { storage: "2Gi" } } });
    await cluster.settle(2_000);
    const claim = current(cluster.store, refs.claims, "data", "default");
    const name = `pvc-${created.metadata.uid}`;
    expect(spec(claim)).toMatchObject({ storageClassName: PORTABLE_CLASS, volumeName: name });
    expect(claim.metadata.annotations).toEqual({
      "pv.kubernetes.io/bind-completed": "yes",
      "pv.kubernetes.io/bound-by-controller": "yes",
      "volume.beta.kubernetes.io/storage-provisioner": PORTABLE_DRIVER,
      "volume.kubernetes.io/storage-provisioner": PORTABLE_DRIVER,
    });
    expect(status(claim)).toEqual({ phase: "Bound", accessModes: ["ReadWriteOnce"], capacity: { storage: "2Gi" } });
    const volume = current(cluster.store, refs.volumes, name);
    expect(volume.metadata.annotations?.["pv.kubernetes.io/provisioned-by"]).toBe(PORTABLE_DRIVER);
    expect(spec(volume)).toMatchObject({
      capacity: { storage: "2Gi" },
      accessModes: ["ReadWriteOnce"],
      persistentVolumeReclaimPolicy: "Delete",
      storageClassName: PORTABLE_CLASS,
      claimRef: { kind: "PersistentVolumeClaim", namespace: "default", name: "data", uid: created.metadata.uid },
      csi: { driver: PORTABLE_DRIVER },
    });
    expect(spec(volume).nodeAffinity).toBeUndefined();
    expect(status(volume).phase).toBe("Bound");
    const identity = PROVISIONERS[PORTABLE_DRIVER]!.identity;
    expect(eventsFor(cluster.store, "data").map(({ reason, message, source }) => ({ reason, message, source }))).toEqual([
      {
        reason: "ExternalProvisioning",
        message: `Waiting for a volume to be created either by the external provisioner '${PORTABLE_DRIVER}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.`,
        source: "persistentvolume-controller",
      },
      { reason: "Provisioning", message: 'External provisioner is provisioning volume for claim "default/data"', source: identity },
      { reason: "ProvisioningSucceeded", message: `Successfully provisioned volume ${name}`, source: identity },
    ]);
  });

  it("waits for the first consumer of a WaitForFirstConsumer claim, then for its pod to be scheduled", async () => {
    const cluster = volumeCluster({ defaultClass: LOCAL_PATH_CLASS });
    createClaim(cluster.store, "data");
    await cluster.settle();
    expect(eventsFor(cluster.store, "data")).toEqual([
      { type: "Normal", reason: "WaitForFirstConsumer", message: "waiting for first consumer to be created before binding", source: "persistentvolume-controller", count: 1 },
    ]);
    // A pod that cannot be scheduled (its node selector matches nothing) is named.
    createPod(cluster.store, "app", { ...mounting("data"), nodeSelector: { disk: "none" } });
    await cluster.settle();
    expect(eventsFor(cluster.store, "data").at(-1)).toMatchObject({ reason: "WaitForPodScheduled", message: "waiting for pod app to be scheduled" });
    expect(status(current(cluster.store, refs.claims, "data", "default")).phase).toBe("Pending");
  });

  it("provisions a WaitForFirstConsumer claim on the selected node as a local-path volume", async () => {
    const cluster = volumeCluster({ defaultClass: LOCAL_PATH_CLASS });
    const created = createClaim(cluster.store, "data");
    createPod(cluster.store, "app", mounting("data"));
    await cluster.settle(2_000);
    const volume = volumeOf(cluster, "data");
    expect(spec(volume)).toMatchObject({
      hostPath: { path: `/var/local-path-provisioner/pvc-${created.metadata.uid}_default_data`, type: "DirectoryOrCreate" },
      capacity: { storage: "1Gi" },
      storageClassName: LOCAL_PATH_CLASS,
    });
    expect(volume.metadata.finalizers).toEqual(["kubernetes.io/pv-protection"]);
    expect(current(cluster.store, refs.claims, "data", "default").metadata.annotations?.[SELECTED_NODE_ANNOTATION]).toBe("worker-1");
  });

  it("reports a class that does not exist with the class lister's message", async () => {
    const cluster = volumeCluster();
    createClaim(cluster.store, "data", { storageClassName: "gold" });
    await cluster.settle();
    expect(eventsFor(cluster.store, "data")).toEqual([
      { type: "Warning", reason: "ProvisioningFailed", message: 'storageclass.storage.k8s.io "gold" not found', source: "persistentvolume-controller", count: 1 },
    ]);
  });

  it("surfaces an injected provisioning failure, backs off, and recovers when it is cleared", async () => {
    const cluster = volumeCluster({ defaultClass: PORTABLE_CLASS });
    cluster.binder.failProvisioning(PORTABLE_CLASS, "rpc error: code = Unavailable desc = backend unavailable");
    createClaim(cluster.store, "data");
    await cluster.settle(10_000);
    const failures = () => eventsFor(cluster.store, "data").filter((event) => event.reason === "ProvisioningFailed");
    expect(failures()).toEqual([
      {
        type: "Warning",
        reason: "ProvisioningFailed",
        message: 'failed to provision volume with StorageClass "portable": rpc error: code = Unavailable desc = backend unavailable',
        source: PROVISIONERS[PORTABLE_DRIVER]!.identity,
        // Attempts at 1 s, then after 1, 2 and 4 s of backoff (each attempt takes 1 s).
        count: 3,
      },
    ]);
    expect(status(current(cluster.store, refs.claims, "data", "default")).phase).toBe("Pending");
    cluster.binder.failProvisioning(PORTABLE_CLASS, null);
    await cluster.settle(2_000);
    expect(status(current(cluster.store, refs.claims, "data", "default")).phase).toBe("Bound");
  });

  it("refuses ReadWriteMany on local-path with the provisioner's message", async () => {
    const cluster = volumeCluster({ defaultClass: LOCAL_PATH_CLASS });
    createClaim(cluster.store, "shared", { accessModes: ["ReadWriteMany"] });
    createPod(cluster.store, "app", mounting("shared"));
    await cluster.settle(2_000);
    expect(eventsFor(cluster.store, "shared").find((event) => event.reason === "ProvisioningFailed")?.message).toBe(
      'failed to provision volume with StorageClass "local-path": NodePath only supports ReadWriteOnce and ReadWriteOncePod (1.22+) access modes',
    );
  });

  it("binds a claim that asks for no class to the smallest matching pre-created volume", async () => {
    const cluster = volumeCluster({ defaultClass: null });
    for (const [name, size] of [["big", "10Gi"], ["small", "2Gi"], ["tiny", "512Mi"]] as const) {
      cluster.store.create(refs.volumes, {
        apiVersion: "v1",
        kind: "PersistentVolume",
        metadata: { name },
        spec: { capacity: { storage: size }, accessModes: ["ReadWriteOnce"], persistentVolumeReclaimPolicy: "Retain", hostPath: { path: `/srv/${name}` } },
        status: { phase: "Pending" },
      });
    }
    await cluster.settle();
    createClaim(cluster.store, "data", { storageClassName: "" });
    await cluster.settle();
    const claim = current(cluster.store, refs.claims, "data", "default");
    expect(spec(claim).volumeName).toBe("small");
    expect(status(claim)).toMatchObject({ phase: "Bound", capacity: { storage: "2Gi" } });
    expect(current(cluster.store, refs.volumes, "small").metadata.annotations).toEqual({ "pv.kubernetes.io/bound-by-controller": "yes" });
    expect(status(current(cluster.store, refs.volumes, "tiny")).phase).toBe("Available");
  });

  it("gives a class-less claim the default class once one appears (retroactive default)", async () => {
    const cluster = volumeCluster({ defaultClass: null });
    createClaim(cluster.store, "data");
    await cluster.settle();
    edit(cluster.store, refs.storageClasses, current(cluster.store, refs.storageClasses, PORTABLE_CLASS), (storageClass) => {
      storageClass.metadata.annotations = { "storageclass.kubernetes.io/is-default-class": "true" };
    });
    await cluster.settle(2_000);
    const claim = current(cluster.store, refs.claims, "data", "default");
    expect(spec(claim).storageClassName).toBe(PORTABLE_CLASS);
    expect(status(claim).phase).toBe("Bound");
  });

  it("deletes a Delete volume and its data once its claim is gone", async () => {
    const cluster = volumeCluster({ defaultClass: PORTABLE_CLASS });
    createClaim(cluster.store, "data");
    await cluster.settle(2_000);
    const name = volumeOf(cluster, "data").metadata.name;
    cluster.volumes.persistentVolume(name).writeText("/notes.txt", "keep me", 0);
    cluster.store.delete(refs.claims, "default", "data");
    await cluster.settle();
    expect(cluster.store.peek(refs.claims, "default", "data")).toBeUndefined();
    expect(cluster.store.peek(refs.volumes, undefined, name)).toBeUndefined();
    expect(cluster.volumes.hasPersistentVolume(name)).toBe(false);
  });

  it("keeps a Retain volume Released, with its data", async () => {
    const cluster = volumeCluster({ defaultClass: null });
    cluster.store.create(refs.storageClasses, {
      apiVersion: "storage.k8s.io/v1",
      kind: "StorageClass",
      metadata: { name: "keep" },
      provisioner: PORTABLE_DRIVER,
      reclaimPolicy: "Retain",
      volumeBindingMode: "Immediate",
    });
    createClaim(cluster.store, "data", { storageClassName: "keep" });
    await cluster.settle(2_000);
    const name = volumeOf(cluster, "data").metadata.name;
    cluster.volumes.persistentVolume(name).writeText("/notes.txt", "keep me", 0);
    cluster.store.delete(refs.claims, "default", "data");
    await cluster.settle();
    const volume = current(cluster.store, refs.volumes, name);
    expect(status(volume).phase).toBe("Released");
    expect(spec(volume).claimRef).toMatchObject({ name: "data" });
    expect(cluster.volumes.persistentVolume(name).readText("/notes.txt")).toBe("keep me");
  });

  it("grows a bound volume of an expandable class when its claim asks for more", async () => {
    const cluster = volumeCluster({ defaultClass: PORTABLE_CLASS });
    createClaim(cluster.store, "data");
    await cluster.settle(2_000);
    edit(cluster.store, refs.claims, current(cluster.store, refs.claims, "data", "default"), (claim) => {
      claim.spec = { ...spec(claim), resources: { requests: { storage: "3Gi" } } };
    });
    await cluster.settle(2_000);
    const claim = current(cluster.store, refs.claims, "data", "default");
    expect(status(claim).capacity).toEqual({ storage: "3Gi" });
    expect(status(claim).conditions).toBeUndefined();
    expect(spec(volumeOf(cluster, "data")).capacity).toEqual({ storage: "3Gi" });
    const name = volumeOf(cluster, "data").metadata.name;
    expect(eventsFor(cluster.store, "data").slice(-3).map(({ type, reason, message, source }) => ({ type, reason, message, source }))).toEqual([
      { type: "Warning", reason: "ExternalExpanding", message: "waiting for an external controller to expand this PVC", source: "volume_expand" },
      { type: "Normal", reason: "Resizing", message: `External resizer is resizing volume ${name}`, source: `external-resizer ${PORTABLE_DRIVER}` },
      { type: "Normal", reason: "VolumeResizeSuccessful", message: "Resize volume succeeded", source: `external-resizer ${PORTABLE_DRIVER}` },
    ]);
  });

  it("clones a claim's data into a new claim that names it as its data source", async () => {
    const cluster = volumeCluster({ defaultClass: PORTABLE_CLASS });
    createClaim(cluster.store, "source");
    await cluster.settle(2_000);
    cluster.volumes.persistentVolume(volumeOf(cluster, "source").metadata.name).writeText("/work/plan.md", "# plan", 0);
    createClaim(cluster.store, "copy", { dataSource: { kind: "PersistentVolumeClaim", name: "source" } });
    await cluster.settle(2_000);
    expect(cluster.volumes.persistentVolume(volumeOf(cluster, "copy").metadata.name).readText("/work/plan.md")).toBe("# plan");
  });

  it("explains why a named volume does not satisfy a claim", () => {
    const volume = { metadata: { name: "pv" }, spec: { capacity: { storage: "1Gi" }, accessModes: ["ReadWriteOnce"] } };
    const claim = (extra: Record<string, unknown>) => ({ metadata: { name: "c" }, spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } }, ...extra } });
    expect(volumeMismatch(volume, claim({}))).toBeNull();
    expect(volumeMismatch(volume, claim({ resources: { requests: { storage: "2Gi" } } }))).toBe("requested PV is too small");
    expect(volumeMismatch(volume, claim({ storageClassName: "fast" }))).toBe("storageClassName does not match");
    expect(volumeMismatch(volume, claim({ accessModes: ["ReadWriteMany"] }))).toBe("incompatible accessMode");
  });

  it("refuses to grow a claim of a class that does not allow expansion, as the resize admission plugin does", async () => {
    const cluster = volumeCluster({ defaultClass: LOCAL_PATH_CLASS });
    const claim = createClaim(cluster.store, "data", { storageClassName: LOCAL_PATH_CLASS });
    const classes = cluster.store.list(refs.storageClasses);
    const grown = { ...claim, spec: { ...spec(claim), resources: { requests: { storage: "2Gi" } } } };
    expect(admitClaimResize(claim, grown, classes)?.status).toMatchObject({
      code: 403,
      reason: "Forbidden",
      message: 'persistentvolumeclaims "data" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize',
    });
    const portable = { ...claim, spec: { ...spec(claim), storageClassName: PORTABLE_CLASS } };
    expect(admitClaimResize(portable, { ...portable, spec: { ...spec(portable), resources: { requests: { storage: "2Gi" } } } }, classes)).toBeNull();
    expect(admitClaimResize(claim, claim, classes)).toBeNull();
  });
});
