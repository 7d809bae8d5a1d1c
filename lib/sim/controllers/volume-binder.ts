import { randomUUID } from "node:crypto";
import type { Clock } from "../clock.ts";
import { keyOf, list, nodeNameOf, record, refs, removeCondition, setCondition, splitKey, status, timestamp } from "../k8s-objects.ts";
import { clone, type KubeObject, type StoredObject } from "../objects.ts";
import { StatusError } from "../status-error.ts";
import {
  accessModesOf, ANN_PROVISIONED_BY, bytesOf, claimClassName, claimHasClass, claimRefTo, defaultStorageClass, formatBinaryQuantity, PROVISIONER_FINALIZER,
  provisionedVolume, provisionerProfile, PV_PROTECTION_FINALIZER, requestOf, volumeModeOf, type ProvisionerProfile,
} from "../storage-topology.ts";
import type { ObjectStore, StoreEvent } from "../store/object-store.ts";
import type { VolumeContents } from "../volume-contents.ts";
import type { EventRecorder } from "./event-recorder.ts";
import { labelSelectorMatches, type LabelSelector } from "./node-affinity.ts";
import type { Reconciler, ReconcileResult } from "./reconciler.ts";
import { podClaimNames, SELECTED_NODE_ANNOTATION } from "./scheduler.ts";

// The persistentvolume-controller of kube-controller-manager together with the provisioners and
// resizer the simulated cluster runs (rancher.io/local-path and a CSI driver), the in-tree
// expand controller and the pv-protection controller. Claims and volumes are reconciled by key
// ("claim:<ns>/<name>", "volume:<name>") like syncClaim and syncVolume: bind a claim to a
// matching or freshly provisioned PV both ways, assign the default class retroactively,
// provision (waiting for the first consumer's node where the class says so), restore snapshots
// and clone claims into new volumes, release and reclaim volumes whose claim is gone, and grow
// volumes whose claim asks for more. Event reasons and messages are the real components'.

export const COMPONENT = "persistentvolume-controller";
const EXPAND_COMPONENT = "volume_expand";

export const ANN_BIND_COMPLETED = "pv.kubernetes.io/bind-completed";
export const ANN_BOUND_BY_CONTROLLER = "pv.kubernetes.io/bound-by-controller";
export const ANN_STORAGE_PROVISIONER = "volume.kubernetes.io/storage-provisioner";
export const ANN_BETA_STORAGE_PROVISIONER = "volume.beta.kubernetes.io/storage-provisioner";
export const SNAPSHOT_AS_SOURCE_FINALIZER = "snapshot.storage.kubernetes.io/volumesnapshot-as-source-protection";

const SNAPSHOT_GROUP = "snapshot.storage.k8s.io";
/** csi-provisioner's default retry interval: 1 s, doubling, at most 5 min. */
const RETRY_START_MS = 1_000;
const RETRY_MAX_MS = 300_000;

export interface VolumeBinderOptions {
  store: ObjectStore;
  clock: Clock;
  recorder: EventRecorder;
  volumes: VolumeContents;
  /** How long a provisioner takes to create a volume (simulated ms). */
  provisionDelayMs?: number;
  /** How long the resizer takes to grow a volume (simulated ms). */
  resizeDelayMs?: number;
  /** The controller's resync period: unbound claims are looked at again this often. */
  resyncMs?: number;
}

interface Operation {
  uid: string;
  /** When the current attempt finishes (its Provisioning event is out), or when the next starts. */
  at: number;
  running: boolean;
  failures: number;
}

interface Resize {
  uid: string;
  target: number;
  at: number;
}

type Outcome = { volume: KubeObject; fill: (volumes: VolumeContents, name: string) => void } | { error: string; reschedule?: boolean };

/** metav1.Now in a status: RFC 3339 at second precision. */
const stamp = (clock: Clock) => timestamp(clock.now());

/** IsVolumeBoundToClaim: the PV points at the claim by name, and by uid if it names one. */
function volumeBoundToClaim(volume: KubeObject, claim: StoredObject): boolean {
  const ref = record(record(volume.spec).claimRef);
  return ref.name === claim.metadata.name && ref.namespace === claim.metadata.namespace && (!ref.uid || ref.uid === claim.metadata.uid);
}

const capacityOf = (object: KubeObject) => record(record(object.spec).capacity).storage;

/** checkVolumeSatisfyClaim, for a claim that names its volume: why it cannot bind, or null. */
export function volumeMismatch(volume: KubeObject, claim: KubeObject): string | null {
  if (volume.metadata.deletionTimestamp) return `the volume is marked for deletion "${volume.metadata.name}"`;
  if (bytesOf(capacityOf(volume)) < bytesOf(requestOf(claim))) return "requested PV is too small";
  if (String(record(volume.spec).storageClassName ?? "") !== claimClassName(claim)) return "storageClassName does not match";
  if (volumeModeOf(volume) !== volumeModeOf(claim)) return "incompatible volumeMode";
  const modes = accessModesOf(volume);
  if (!accessModesOf(claim).every((mode) => modes.includes(mode))) return "incompatible accessMode";
  return null;
}

/**
 * The PersistentVolumeClaimResize admission plugin, for the API server's claim updates: growing
 * a claim needs a class that allows volume expansion. Returns the 403 to answer, or null.
 */
export function admitClaimResize(old: StoredObject, next: KubeObject, storageClasses: StoredObject[]): StatusError | null {
  if (bytesOf(requestOf(next)) <= bytesOf(requestOf(old))) return null;
  const className = claimClassName(next);
  const storageClass = storageClasses.find((one) => one.metadata.name === className);
  if (className && className === claimClassName(old) && storageClass?.allowVolumeExpansion === true) return null;
  const name = old.metadata.name;
  return StatusError.of(
    403,
    "Forbidden",
    `persistentvolumeclaims "${name}" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize`,
    { name, kind: "persistentvolumeclaims" },
  );
}

/** The claim's data source, preferring dataSourceRef as the API server mirrors the two. */
function dataSourceOf(claim: KubeObject): { kind: string; name: string; apiGroup: string } | undefined {
  const spec = record(claim.spec);
  const source = record(spec.dataSourceRef ?? spec.dataSource);
  if (typeof source.kind !== "string" || typeof source.name !== "string") return undefined;
  return { kind: source.kind, name: source.name, apiGroup: typeof source.apiGroup === "string" ? source.apiGroup : "" };
}

export class VolumeBinder implements Reconciler {
  readonly name = COMPONENT;
  private readonly store: ObjectStore;
  private readonly clock: Clock;
  private readonly recorder: EventRecorder;
  private readonly volumes: VolumeContents;
  private readonly provisionDelayMs: number;
  private readonly resizeDelayMs: number;
  private readonly resyncMs: number;
  private readonly failures = new Map<string, string>();
  private readonly operations = new Map<string, Operation>();
  private readonly resizes = new Map<string, Resize>();
  /** Unscheduled pods by the claim key they mount: WaitForPodScheduled names them. */
  private readonly waitingPods = new Map<string, Set<string>>();
  private readonly podClaims = new Map<string, string[]>();
  /** Volumes no claim has bound: the only ones a claim can be matched to (the volume index). */
  private readonly unclaimed = new Set<string>();
  private indexed = false;
  private enqueue: (key: string) => void = () => {};

  constructor(options: VolumeBinderOptions) {
    this.store = options.store;
    this.clock = options.clock;
    this.recorder = options.recorder;
    this.volumes = options.volumes;
    this.provisionDelayMs = options.provisionDelayMs ?? 1_000;
    this.resizeDelayMs = options.resizeDelayMs ?? 1_000;
    this.resyncMs = options.resyncMs ?? 15_000;
  }

  /** Lets the binder ask its loop to look at claims at once (see failProvisioning). */
  connect(enqueue: (key: string) => void): void {
    this.enqueue = enqueue;
  }

  /**
   * Makes every provisioning for claims of a class fail with `message` (null: succeed again), as
   * a broken storage backend would. Returns the claim keys affected; they are re-queued at once.
   */
  failProvisioning(className: string, message: string | null): string[] {
    if (message === null) this.failures.delete(className);
    else this.failures.set(className, message);
    const keys = this.store
      .list(refs.claims)
      .filter((claim) => record(claim.status).phase !== "Bound" && claimClassName(claim) === className)
      .map((claim) => `claim:${keyOf(claim)}`);
    for (const key of keys) {
      // A cleared fault is retried now rather than at the end of the backoff.
      const operation = this.operations.get(key.slice("claim:".length));
      if (operation && message === null && !operation.running) operation.at = this.clock.now().getTime();
      this.enqueue(key);
    }
    return keys;
  }

  initialKeys(): string[] {
    this.buildIndex();
    return [...this.store.list(refs.claims).map((claim) => `claim:${keyOf(claim)}`), ...this.store.list(refs.volumes).map((volume) => `volume:${volume.metadata.name}`)];
  }

  keysFor(event: StoreEvent): string[] {
    this.buildIndex();
    const object = event.object;
    switch (event.resource) {
      case "persistentvolumeclaims": {
        const keys = [`claim:${keyOf(object)}`];
        const volumeName = record(object.spec).volumeName;
        if (typeof volumeName === "string" && volumeName) keys.push(`volume:${volumeName}`);
        return keys;
      }
      case "persistentvolumes": {
        this.trackVolume(object, event.type === "DELETED");
        const keys = [`volume:${object.metadata.name}`];
        const ref = record(record(object.spec).claimRef);
        if (typeof ref.name === "string") keys.push(`claim:${String(ref.namespace)}/${ref.name}`);
        return keys;
      }
      case "pods":
        return this.observePod(event);
      case "storage.k8s.io/storageclasses":
        return this.store
          .list(refs.claims)
          .filter((claim) => record(claim.status).phase !== "Bound")
          .map((claim) => `claim:${keyOf(claim)}`);
      case "snapshot.storage.k8s.io/volumesnapshots":
        return this.store
          .list(refs.claims, object.metadata.namespace)
          .filter((claim) => record(claim.status).phase !== "Bound" && dataSourceOf(claim)?.name === object.metadata.name)
          .map((claim) => `claim:${keyOf(claim)}`);
      default:
        return [];
    }
  }

  reconcile(key: string): ReconcileResult | void {
    this.buildIndex();
    if (key.startsWith("volume:")) return this.syncVolume(key.slice("volume:".length));
    if (key.startsWith("claim:")) return this.syncClaim(key.slice("claim:".length));
  }

  // ---- the pods that wait for a claim ----

  private buildIndex(): void {
    if (this.indexed) return;
    this.indexed = true;
    for (const pod of this.store.list(refs.pods)) this.trackPod(pod, false);
    for (const volume of this.store.list(refs.volumes)) this.trackVolume(volume, false);
  }

  private trackVolume(volume: StoredObject, deleted: boolean): void {
    if (!deleted && !record(record(volume.spec).claimRef).uid) this.unclaimed.add(volume.metadata.name);
    else this.unclaimed.delete(volume.metadata.name);
  }

  private observePod(event: StoreEvent): string[] {
    const pod = event.object;
    const before = this.podClaims.get(keyOf(pod)) ?? [];
    this.trackPod(pod, event.type === "DELETED");
    const after = this.podClaims.get(keyOf(pod)) ?? [];
    // Only claims still waiting care which pods wait for them.
    return [...new Set([...before, ...after])]
      .filter((claimKey) => {
        const { namespace, name } = splitKey(claimKey);
        return record(this.store.peek(refs.claims, namespace, name)?.status).phase === "Pending";
      })
      .map((claimKey) => `claim:${claimKey}`);
  }

  private trackPod(pod: StoredObject, deleted: boolean): void {
    const podKey = keyOf(pod);
    for (const claimKey of this.podClaims.get(podKey) ?? []) this.waitingPods.get(claimKey)?.delete(pod.metadata.name);
    this.podClaims.delete(podKey);
    if (deleted || nodeNameOf(pod)) return;
    const claimKeys = podClaimNames(pod).map(({ name }) => `${pod.metadata.namespace}/${name}`);
    this.podClaims.set(podKey, claimKeys);
    for (const claimKey of claimKeys) {
      let names = this.waitingPods.get(claimKey);
      if (!names) this.waitingPods.set(claimKey, (names = new Set()));
      names.add(pod.metadata.name);
    }
  }

  // ---- claims (syncClaim) ----

  private syncClaim(key: string): ReconcileResult | void {
    const { namespace, name } = splitKey(key);
    const claim = this.store.peek(refs.claims, namespace, name);
    if (!claim || (this.operations.get(key)?.uid ?? claim.metadata.uid) !== claim.metadata.uid) this.operations.delete(key);
    if (!claim || (this.resizes.get(key)?.uid ?? claim.metadata.uid) !== claim.metadata.uid) this.resizes.delete(key);
    // A claim being deleted waits for its pods; its volume is reclaimed once it is gone.
    if (!claim || claim.metadata.deletionTimestamp) return;
    const volumeName = record(claim.spec).volumeName;
    if (typeof volumeName !== "string" || !volumeName) return this.syncUnboundClaim(claim);
    this.operations.delete(key);
    if (claim.metadata.annotations?.[ANN_BIND_COMPLETED] === undefined) return this.syncPreboundClaim(claim, volumeName);
    return this.syncBoundClaim(claim, volumeName);
  }

  private syncUnboundClaim(claim: StoredObject): ReconcileResult | void {
    const className = claimClassName(claim);
    const storageClass = className ? this.store.peek(refs.storageClasses, undefined, className) : undefined;
    const delayBinding = storageClass?.volumeBindingMode === "WaitForFirstConsumer";
    const match = this.findMatchingVolume(claim, delayBinding);
    if (match) return this.bind(match, claim);

    // Retroactive default StorageClass (GA in 1.28): a claim that names no class gets the default.
    if (!claimHasClass(claim)) {
      const fallback = defaultStorageClass(this.store.list(refs.storageClasses));
      if (fallback) {
        const next = clone(claim);
        next.spec = { ...record(next.spec), storageClassName: fallback.metadata.name };
        this.store.update(refs.claims, next);
        return;
      }
    }

    if (delayBinding && claim.metadata.annotations?.[SELECTED_NODE_ANNOTATION] === undefined) {
      // No pod has been scheduled with this claim yet.
      const waiting = [...(this.waitingPods.get(keyOf(claim)) ?? [])].sort();
      if (waiting.length === 0) this.recorder.record(claim, "Normal", "WaitForFirstConsumer", "waiting for first consumer to be created before binding", COMPONENT);
      else this.recorder.record(claim, "Normal", "WaitForPodScheduled", `waiting for ${waiting.length > 1 ? "pods" : "pod"} ${waiting.join(",")} to be scheduled`, COMPONENT);
      this.setClaimPending(claim);
      return { requeueAfterMs: this.resyncMs };
    }
    if (className) return this.provisionClaim(claim, className, storageClass);
    this.recorder.record(claim, "Normal", "FailedBinding", "no persistent volumes available for this claim and no storage class is set", COMPONENT);
    this.setClaimPending(claim);
    return { requeueAfterMs: this.resyncMs };
  }

  /**
   * findBestMatchForClaim: the volume provisioned for (or pre-bound to) this claim, else the
   * smallest Available volume of the claim's class that satisfies it. Claims of a
   * WaitForFirstConsumer class are left to the scheduler. Only unclaimed volumes are searched
   * (and the one named after the claim), so thousands of bound volumes cost nothing here.
   */
  private findMatchingVolume(claim: StoredObject, delayBinding: boolean): StoredObject | undefined {
    const provisioned = this.store.peek(refs.volumes, undefined, `pvc-${claim.metadata.uid}`);
    if (provisioned && !provisioned.metadata.deletionTimestamp && volumeBoundToClaim(provisioned, claim)) return provisioned;
    const requested = bytesOf(requestOf(claim));
    const className = claimClassName(claim);
    const modes = accessModesOf(claim);
    const selector = record(claim.spec).selector as LabelSelector | undefined;
    let smallest: StoredObject | undefined;
    for (const name of [...this.unclaimed].sort()) {
      const volume = this.store.peek(refs.volumes, undefined, name);
      if (!volume || volume.metadata.deletionTimestamp || volumeModeOf(volume) !== volumeModeOf(claim)) continue;
      const capacity = bytesOf(capacityOf(volume));
      if (capacity < requested) continue;
      if (volumeBoundToClaim(volume, claim)) return volume;
      if (delayBinding) continue;
      if (record(volume.spec).claimRef !== undefined || record(volume.status).phase !== "Available") continue;
      if (!labelSelectorMatches(selector, volume.metadata.labels ?? {})) continue;
      if (String(record(volume.spec).storageClassName ?? "") !== className) continue;
      if (!modes.every((mode) => accessModesOf(volume).includes(mode))) continue;
      if (!smallest || bytesOf(capacityOf(smallest)) > capacity) smallest = volume;
    }
    return smallest;
  }

  /** A claim that names its volume (spec.volumeName) but is not bound yet. */
  private syncPreboundClaim(claim: StoredObject, volumeName: string): ReconcileResult | void {
    const volume = this.store.peek(refs.volumes, undefined, volumeName);
    if (!volume) {
      this.setClaimPending(claim);
      return { requeueAfterMs: this.resyncMs };
    }
    if (record(volume.spec).claimRef === undefined) {
      const mismatch = volumeMismatch(volume, claim);
      if (!mismatch) return this.bind(volume, claim);
      this.recorder.record(claim, "Warning", "VolumeMismatch", `Cannot bind to requested volume "${volumeName}": ${mismatch}`, COMPONENT);
      this.setClaimPending(claim);
      return { requeueAfterMs: this.resyncMs };
    }
    if (volumeBoundToClaim(volume, claim)) return this.bind(volume, claim);
    this.recorder.record(claim, "Warning", "FailedBinding", `volume "${volumeName}" already bound to a different claim.`, COMPONENT);
    this.setClaimPending(claim);
    return { requeueAfterMs: this.resyncMs };
  }

  private syncBoundClaim(claim: StoredObject, volumeName: string): ReconcileResult | void {
    const volume = this.store.peek(refs.volumes, undefined, volumeName);
    if (!volume) return this.loseClaim(claim, "ClaimLost", "Bound claim has lost its PersistentVolume. Data on the volume is lost!");
    const ref = record(record(volume.spec).claimRef);
    if (ref.name !== undefined && ref.uid !== claim.metadata.uid) {
      return this.loseClaim(claim, "ClaimMisbound", "Two claims are bound to the same volume, this one is bound incorrectly");
    }
    this.bind(volume, claim);
    const current = this.store.peek(refs.claims, claim.metadata.namespace, claim.metadata.name);
    const bound = current && this.store.peek(refs.volumes, undefined, volumeName);
    if (current && bound) return this.expand(current, bound);
  }

  private loseClaim(claim: StoredObject, reason: string, message: string): void {
    if (record(claim.status).phase === "Lost") return;
    const next = clone(claim);
    next.status = { ...record(next.status), phase: "Lost" };
    const updated = this.store.update(refs.claims, next);
    this.recorder.record(updated, "Warning", reason, message, COMPONENT);
  }

  /**
   * bind(): the volume first (claimRef, Bound), then the claim (volumeName and the binding
   * annotations, then Bound with the volume's capacity and access modes). Writes only what
   * differs, so a repeated bind is harmless.
   */
  private bind(volume: StoredObject, claim: StoredObject): void {
    let pv = volume;
    const ref = record(record(pv.spec).claimRef);
    if (ref.name !== claim.metadata.name || ref.namespace !== claim.metadata.namespace || ref.uid !== claim.metadata.uid) {
      const next = clone(pv);
      const boundBefore = volumeBoundToClaim(pv, claim);
      next.spec = { ...record(next.spec), claimRef: claimRefTo(claim) };
      if (!boundBefore) next.metadata.annotations = { ...next.metadata.annotations, [ANN_BOUND_BY_CONTROLLER]: "yes" };
      pv = this.store.update(refs.volumes, next);
    }
    pv = this.setVolumePhase(pv, "Bound");

    let pvc = claim;
    const annotations = pvc.metadata.annotations ?? {};
    if (record(pvc.spec).volumeName !== pv.metadata.name || annotations[ANN_BIND_COMPLETED] === undefined) {
      const next = clone(pvc);
      if (record(next.spec).volumeName !== pv.metadata.name) {
        next.spec = { ...record(next.spec), volumeName: pv.metadata.name };
        next.metadata.annotations = { [ANN_BOUND_BY_CONTROLLER]: "yes", ...next.metadata.annotations };
      }
      next.metadata.annotations = { ...next.metadata.annotations, [ANN_BIND_COMPLETED]: "yes" };
      pvc = this.store.update(refs.claims, next);
    }
    const claimStatus = record(pvc.status);
    const becomingBound = claimStatus.phase !== "Bound";
    const modes = record(pv.spec).accessModes;
    if (becomingBound || JSON.stringify(claimStatus.accessModes) !== JSON.stringify(modes)) {
      const next = clone(pvc);
      // Capacity is set when the claim becomes Bound, not after: a resize changes it on its own.
      next.status = { ...claimStatus, phase: "Bound", accessModes: modes, ...(becomingBound ? { capacity: { ...record(record(pv.spec).capacity) } } : {}) };
      this.store.update(refs.claims, next);
    }
  }

  private setClaimPending(claim: StoredObject): void {
    const claimStatus = record(claim.status);
    if (claimStatus.phase === "Pending" && claimStatus.accessModes === undefined && claimStatus.capacity === undefined) return;
    const next = clone(claim);
    const { accessModes: _modes, capacity: _capacity, ...rest } = claimStatus;
    next.status = { ...rest, phase: "Pending" };
    this.store.update(refs.claims, next);
  }

  // ---- provisioning ----

  /** provisionClaim: hand the claim to its class's external provisioner, then be that provisioner. */
  private provisionClaim(claim: StoredObject, className: string, storageClass: StoredObject | undefined): ReconcileResult | void {
    if (!storageClass) {
      // The class lister's NotFound, qualified with the storage group.
      this.recorder.record(claim, "Warning", "ProvisioningFailed", `storageclass.storage.k8s.io "${className}" not found`, COMPONENT);
      this.setClaimPending(claim);
      return { requeueAfterMs: this.resyncMs };
    }
    const provisioner = String(storageClass.provisioner ?? "");
    let current = claim;
    const annotations = current.metadata.annotations ?? {};
    if (annotations[ANN_STORAGE_PROVISIONER] !== provisioner || annotations[ANN_BETA_STORAGE_PROVISIONER] !== provisioner) {
      const next = clone(current);
      next.metadata.annotations = { ...next.metadata.annotations, [ANN_BETA_STORAGE_PROVISIONER]: provisioner, [ANN_STORAGE_PROVISIONER]: provisioner };
      current = this.store.update(refs.claims, next);
    }
    this.recorder.record(
      current,
      "Normal",
      "ExternalProvisioning",
      `Waiting for a volume to be created either by the external provisioner '${provisioner}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.`,
      COMPONENT,
    );
    this.setClaimPending(current);
    const profile = provisionerProfile(provisioner);
    // Nobody in the simulated cluster runs this provisioner: the claim waits, as it would.
    if (!profile) return { requeueAfterMs: this.resyncMs };
    const latest = this.store.peek(refs.claims, current.metadata.namespace, current.metadata.name) ?? current;
    return this.runProvisioner(latest, storageClass, profile);
  }

  /** The external provisioner's claim worker: announce, take a while, then succeed or back off. */
  private runProvisioner(claim: StoredObject, storageClass: StoredObject, profile: ProvisionerProfile): ReconcileResult {
    const key = keyOf(claim);
    const now = this.clock.now().getTime();
    let operation = this.operations.get(key);
    if (!operation || (!operation.running && now >= operation.at)) {
      operation = { uid: claim.metadata.uid, at: now + this.provisionDelayMs, running: true, failures: operation?.failures ?? 0 };
      this.operations.set(key, operation);
      this.recorder.record(claim, "Normal", "Provisioning", `External provisioner is provisioning volume for claim "${key}"`, profile.identity);
      return { requeueAfterMs: this.provisionDelayMs };
    }
    if (now < operation.at) return { requeueAfterMs: operation.at - now };

    const outcome = this.provision(claim, storageClass, profile);
    if ("error" in outcome) {
      operation.failures++;
      operation.running = false;
      const backoff = Math.min(RETRY_MAX_MS, RETRY_START_MS * 2 ** (operation.failures - 1));
      operation.at = now + backoff;
      this.recorder.record(claim, "Warning", "ProvisioningFailed", outcome.error, profile.identity);
      if (outcome.reschedule) {
        // The selected node is gone: give the claim back to the scheduler.
        const next = clone(claim);
        const { [SELECTED_NODE_ANNOTATION]: _selected, ...rest } = next.metadata.annotations ?? {};
        next.metadata.annotations = rest;
        this.store.update(refs.claims, next);
      }
      return { requeueAfterMs: backoff };
    }
    const name = `pvc-${claim.metadata.uid}`;
    try {
      this.store.create(refs.volumes, outcome.volume);
      outcome.fill(this.volumes, name);
    } catch (error) {
      if (!(error instanceof StatusError && error.status.reason === "AlreadyExists")) throw error;
    }
    this.operations.delete(key);
    this.recorder.record(claim, "Normal", "ProvisioningSucceeded", `Successfully provisioned volume ${name}`, profile.identity);
    return { requeueAfterMs: this.resyncMs };
  }

  /** Provision(): the checks the provisioner makes, in its order, then the PV it creates. */
  private provision(claim: StoredObject, storageClass: StoredObject, profile: ProvisionerProfile): Outcome {
    const className = storageClass.metadata.name;
    const failed = (why: string): Outcome => ({ error: `failed to provision volume with StorageClass "${className}": ${why}` });
    if (volumeModeOf(claim) === "Block" && profile.kind === "local") return { error: `${profile.name} does not support block volume provisioning` };
    const selectedName = claim.metadata.annotations?.[SELECTED_NODE_ANNOTATION];
    const selected = selectedName !== undefined ? this.store.peek(refs.nodes, undefined, selectedName) : undefined;
    if (selectedName !== undefined && !selected) return { error: `node "${selectedName}" not found`, reschedule: true };
    if (!accessModesOf(claim).every((mode) => profile.accessModes.includes(mode))) {
      return failed("NodePath only supports ReadWriteOnce and ReadWriteOncePod (1.22+) access modes");
    }
    if (profile.nodePinned && !selected) return failed("configuration error, no node was specified");

    let fill: (volumes: VolumeContents, name: string) => void = () => {};
    const source = profile.dataSources ? dataSourceOf(claim) : undefined;
    if (source) {
      const resolved = this.resolveDataSource(claim, storageClass, source);
      if (typeof resolved === "string") return failed(`error getting handle for DataSource Type ${source.kind} by Name ${source.name}: ${resolved}`);
      fill = resolved;
    }
    const injected = this.failures.get(className);
    if (injected !== undefined) return failed(injected);
    return { volume: provisionedVolume({ claim, storageClass, profile, node: selected, now: this.clock.now(), volumeHandle: randomUUID() }), fill };
  }

  /**
   * csi-provisioner's getSnapshotSource and getPVCSource: the source must be ready and fit; the
   * result copies its data into the new volume.
   */
  private resolveDataSource(claim: StoredObject, storageClass: StoredObject, source: { kind: string; name: string; apiGroup: string }): string | ((volumes: VolumeContents, name: string) => void) {
    const namespace = claim.metadata.namespace;
    if (source.kind === "VolumeSnapshot" && source.apiGroup === SNAPSHOT_GROUP) {
      const snapshot = this.store.peek(refs.snapshots, namespace, source.name);
      if (!snapshot) return `error getting snapshot ${source.name} from api server: volumesnapshots.snapshot.storage.k8s.io "${source.name}" not found`;
      if (snapshot.metadata.deletionTimestamp && !snapshot.metadata.finalizers?.includes(SNAPSHOT_AS_SOURCE_FINALIZER)) return `snapshot ${source.name} is being deleted`;
      const snapshotStatus = record(snapshot.status);
      const snapshotClass = this.store.peek(refs.snapshotClasses, undefined, String(record(snapshot.spec).volumeSnapshotClassName ?? ""));
      if (typeof snapshotStatus.boundVolumeSnapshotContentName !== "string" || snapshotClass?.driver !== storageClass.provisioner) return `snapshot ${source.name} not bound`;
      if (snapshotStatus.readyToUse !== true) return `snapshot ${source.name} is not Ready`;
      if (!this.volumes.hasSnapshot(snapshot.metadata.uid)) return `snapshot handle ${source.name} is not available`;
      const requested = bytesOf(requestOf(claim));
      const size = bytesOf(snapshotStatus.restoreSize);
      if (snapshotStatus.restoreSize !== undefined && requested < size) return `requested volume size ${requested} is less than the size ${size} for the source snapshot ${source.name}`;
      const uid = snapshot.metadata.uid;
      return (volumes, name) => volumes.restoreSnapshot(uid, name);
    }
    if (source.kind === "PersistentVolumeClaim" && source.apiGroup === "") {
      const sourceClaim = this.store.peek(refs.claims, namespace, source.name);
      if (!sourceClaim) return `error getting PVC ${source.name} (namespace "${namespace}") from api server: persistentvolumeclaim "${source.name}" not found`;
      const sourceStatus = record(sourceClaim.status);
      if (sourceStatus.phase !== "Bound") {
        // Go's %v of the v1.34 PersistentVolumeClaimStatus struct.
        return `the PVC DataSource ${source.name} must have a status of Bound.  Got {${String(sourceStatus.phase ?? "")} [] map[] [] map[] map[] <nil> <nil>}`;
      }
      if (sourceClaim.metadata.deletionTimestamp) return `the PVC DataSource ${source.name} is currently being deleted`;
      if (typeof record(sourceClaim.spec).storageClassName !== "string") return `the source PVC (${source.name}) storageclass cannot be empty`;
      const requested = bytesOf(requestOf(claim));
      const sourceSize = bytesOf(requestOf(sourceClaim));
      if (requested < sourceSize) return `error, new PVC request must be greater than or equal in size to the specified PVC data source, requested ${requested} but source is ${sourceSize}`;
      const sourceVolume = this.store.peek(refs.volumes, undefined, String(record(sourceClaim.spec).volumeName ?? ""));
      const csi = record(record(sourceVolume?.spec).csi);
      if (!sourceVolume || csi.driver !== storageClass.provisioner || !volumeBoundToClaim(sourceVolume, sourceClaim) || record(sourceVolume.status).phase !== "Bound") {
        return "claim in dataSource not bound or invalid";
      }
      const from = sourceVolume.metadata.name;
      return (volumes, name) => volumes.cloneVolume(from, name);
    }
    // Other kinds are left to volume populators: the volume is created empty.
    return () => {};
  }

  // ---- expansion ----

  /**
   * A bound claim asking for more than it has: the in-tree expand controller leaves CSI and
   * local volumes to external resizers (ExternalExpanding); the CSI driver's resizer grows the
   * volume (no node step is needed); local-path has no resizer, so its claim keeps asking.
   */
  private expand(claim: StoredObject, volume: StoredObject): ReconcileResult | void {
    const key = keyOf(claim);
    const requested = bytesOf(requestOf(claim));
    const capacity = bytesOf(record(record(claim.status).capacity).storage);
    if (requested <= capacity) {
      this.resizes.delete(key);
      return;
    }
    const storageClass = this.store.peek(refs.storageClasses, undefined, claimClassName(claim));
    const profile = provisionerProfile(String(storageClass?.provisioner ?? ""));
    const now = this.clock.now().getTime();
    let resize = this.resizes.get(key);
    if (!resize || resize.target !== requested) {
      this.recorder.record(claim, "Warning", "ExternalExpanding", "waiting for an external controller to expand this PVC", EXPAND_COMPONENT);
      if (!profile?.resizer || storageClass?.allowVolumeExpansion !== true) return;
      resize = { uid: claim.metadata.uid, target: requested, at: now + this.resizeDelayMs };
      this.resizes.set(key, resize);
      const next = clone(claim);
      setCondition(next, { type: "Resizing", status: "True", lastProbeTime: null }, stamp(this.clock));
      status(next).allocatedResources = { storage: String(requestOf(claim)) };
      const updated = this.store.update(refs.claims, next);
      this.recorder.record(updated, "Normal", "Resizing", `External resizer is resizing volume ${volume.metadata.name}`, `external-resizer ${profile.name}`);
      return { requeueAfterMs: this.resizeDelayMs };
    }
    if (now < resize.at) return { requeueAfterMs: resize.at - now };
    const size = formatBinaryQuantity(requested);
    const nextVolume = clone(volume);
    nextVolume.spec = { ...record(nextVolume.spec), capacity: { ...record(record(nextVolume.spec).capacity), storage: size } };
    this.store.update(refs.volumes, nextVolume);
    const next = clone(claim);
    removeCondition(next, "Resizing");
    if (list(record(next.status).conditions).length === 0) delete status(next).conditions;
    status(next).capacity = { ...record(record(next.status).capacity), storage: size };
    const updated = this.store.update(refs.claims, next);
    this.resizes.delete(key);
    this.recorder.record(updated, "Normal", "VolumeResizeSuccessful", "Resize volume succeeded", `external-resizer ${profile?.name ?? ""}`);
  }

  // ---- volumes (syncVolume, reclaim, pv-protection) ----

  private syncVolume(name: string): ReconcileResult | void {
    const volume = this.store.peek(refs.volumes, undefined, name);
    if (!volume) return;
    if (volume.metadata.deletionTimestamp) return this.finalizeVolume(volume);
    const ref = record(record(volume.spec).claimRef);
    // Unused, or reserved for a claim that has not bound to it yet: available.
    if (typeof ref.name !== "string" || !ref.uid) {
      this.setVolumePhase(volume, "Available");
      return;
    }
    let claim = this.store.peek(refs.claims, String(ref.namespace), ref.name);
    if (claim && claim.metadata.uid !== ref.uid) claim = undefined;
    if (!claim) return this.reclaim(volume);
    const claimVolume = record(claim.spec).volumeName;
    // The claim's sync finishes the binding.
    if (typeof claimVolume !== "string" || !claimVolume) return;
    if (claimVolume === name) {
      this.setVolumePhase(volume, "Bound");
      return;
    }
    // The claim bound elsewhere: a volume provisioned for it is deleted, another one freed.
    if (volume.metadata.annotations?.[ANN_PROVISIONED_BY] && record(volume.spec).persistentVolumeReclaimPolicy === "Delete") return this.reclaim(volume);
    const next = clone(volume);
    if (volume.metadata.annotations?.[ANN_BOUND_BY_CONTROLLER] !== undefined) {
      const { [ANN_BOUND_BY_CONTROLLER]: _bound, ...rest } = next.metadata.annotations ?? {};
      next.metadata.annotations = rest;
      const { claimRef: _ref, ...spec } = record(next.spec);
      next.spec = spec;
    } else next.spec = { ...record(next.spec), claimRef: { ...ref, uid: undefined } };
    this.setVolumePhase(this.store.update(refs.volumes, next), "Available");
  }

  /** Released, then the reclaim policy: Retain keeps it, Delete has its provisioner delete it. */
  private reclaim(volume: StoredObject): void {
    const phase = record(volume.status).phase;
    let current = volume;
    if (phase !== "Released" && phase !== "Failed") current = this.setVolumePhase(volume, "Released");
    const policy = record(current.spec).persistentVolumeReclaimPolicy ?? "Retain";
    if (policy === "Retain") return;
    if (policy === "Recycle") {
      this.failVolume(current, "VolumeFailedRecycle", "No recycler plugin found for the volume!");
      return;
    }
    const provisioner = current.metadata.annotations?.[ANN_PROVISIONED_BY];
    if (!provisioner) {
      this.failVolume(current, "VolumeFailedDelete", `error getting deleter volume plugin for volume "${current.metadata.name}": no deletable volume plugin matched`);
      return;
    }
    // A provisioner the simulated cluster does not run would delete it; nobody does.
    if (!provisionerProfile(provisioner)) return;
    this.volumes.deletePersistentVolume(current.metadata.name);
    try {
      this.store.delete(refs.volumes, undefined, current.metadata.name);
    } catch (error) {
      if (!(error instanceof StatusError && error.status.reason === "NotFound")) throw error;
    }
  }

  private failVolume(volume: StoredObject, reason: string, message: string): void {
    if (record(volume.status).phase === "Failed") return;
    const next = clone(volume);
    next.status = { ...record(next.status), phase: "Failed", message, lastPhaseTransitionTime: stamp(this.clock) };
    const updated = this.store.update(refs.volumes, next);
    this.recorder.record(updated, "Warning", reason, message, COMPONENT);
  }

  /**
   * A volume being deleted: its provisioner drops the backing data and its finalizer, and the
   * pv-protection controller lets go once no claim is bound to it.
   */
  private finalizeVolume(volume: StoredObject): void {
    if (record(volume.status).phase === "Bound") return;
    const finalizers = volume.metadata.finalizers ?? [];
    const ours: string[] = finalizers.filter((finalizer) => finalizer === PV_PROTECTION_FINALIZER || finalizer === PROVISIONER_FINALIZER);
    if (ours.length === 0) return;
    if (finalizers.includes(PROVISIONER_FINALIZER) && record(volume.spec).persistentVolumeReclaimPolicy === "Delete") {
      this.volumes.deletePersistentVolume(volume.metadata.name);
    }
    const next = clone(volume);
    next.metadata.finalizers = finalizers.filter((finalizer) => !ours.includes(finalizer));
    this.store.update(refs.volumes, next);
  }

  private setVolumePhase(volume: StoredObject, phase: string): StoredObject {
    if (record(volume.status).phase === phase) return volume;
    const next = clone(volume);
    const { message: _message, ...rest } = record(next.status);
    next.status = { ...rest, phase, lastPhaseTransitionTime: stamp(this.clock) };
    return this.store.update(refs.volumes, next);
  }
}
