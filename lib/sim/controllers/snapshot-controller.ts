import type { Clock } from "../clock.ts";
import { keyOf, record, refs, splitKey, timestamp } from "../k8s-objects.ts";
import { clone, type StoredObject } from "../objects.ts";
import { bytesOf, DEFAULT_SNAPSHOT_CLASS_ANNOTATION, formatBinaryQuantity, provisionerProfile } from "../storage-topology.ts";
import type { ObjectStore, StoreEvent } from "../store/object-store.ts";
import type { VolumeContents } from "../volume-contents.ts";
import type { EventRecorder } from "./event-recorder.ts";
import type { Reconciler, ReconcileResult } from "./reconciler.ts";
import { SNAPSHOT_AS_SOURCE_FINALIZER } from "./volume-binder.ts";

// The CSI snapshot-controller (kubernetes-csi/external-snapshotter v8) with the CSI driver's
// snapshotter sidecar folded in. A VolumeSnapshot of a claim gets a class (its own, or the
// default one for the claim's CSI driver), a content name, and — after the driver has taken
// it — readyToUse, creationTime and restoreSize, with the volume's data copied aside. What goes
// wrong is reported at once in status.error with the controller's own words. Deleting a
// snapshot drops its data unless its class retains it. VolumeSnapshotContent objects are not
// served by the simulated API; their names appear in status as the real controller gives them.

export const SNAPSHOT_COMPONENT = "snapshot-controller";
export const SNAPSHOT_BOUND_FINALIZER = "snapshot.storage.kubernetes.io/volumesnapshot-bound-protection";

export interface SnapshotControllerOptions {
  store: ObjectStore;
  clock: Clock;
  recorder: EventRecorder;
  volumes: VolumeContents;
  /** How long the driver takes to cut a snapshot (simulated ms). */
  snapshotDelayMs?: number;
  /** How soon a snapshot that failed is looked at again (the workqueue's rate limit). */
  retryMs?: number;
}

/** Go's %q of a string, for the messages that quote errors. */
const quote = (text: string) => JSON.stringify(text);

class SnapshotError extends Error {
  constructor(
    message: string,
    readonly reason: string,
    readonly prefix: string,
    readonly setReadyToFalse: boolean,
  ) {
    super(message);
  }
}

export class SnapshotController implements Reconciler {
  readonly name = SNAPSHOT_COMPONENT;
  private readonly store: ObjectStore;
  private readonly clock: Clock;
  private readonly recorder: EventRecorder;
  private readonly volumes: VolumeContents;
  private readonly snapshotDelayMs: number;
  private readonly retryMs: number;
  /** When the driver finishes each snapshot being cut, by snapshot uid. */
  private readonly cutting = new Map<string, number>();

  constructor(options: SnapshotControllerOptions) {
    this.store = options.store;
    this.clock = options.clock;
    this.recorder = options.recorder;
    this.volumes = options.volumes;
    this.snapshotDelayMs = options.snapshotDelayMs ?? 1_000;
    this.retryMs = options.retryMs ?? 5_000;
  }

  initialKeys(): string[] {
    return this.store.list(refs.snapshots).map(keyOf);
  }

  keysFor(event: StoreEvent): string[] {
    const object = event.object;
    switch (event.resource) {
      case "snapshot.storage.k8s.io/volumesnapshots":
        return event.type === "DELETED" ? [] : [keyOf(object)];
      case "snapshot.storage.k8s.io/volumesnapshotclasses":
        return this.store.list(refs.snapshots).filter((snapshot) => record(snapshot.status).readyToUse !== true).map(keyOf);
      case "persistentvolumeclaims": {
        // Snapshots of this claim waiting for it to bind, and snapshots it is being restored from.
        const namespace = object.metadata.namespace;
        const source = record(record(object.spec).dataSourceRef ?? record(object.spec).dataSource);
        return this.store
          .list(refs.snapshots, namespace)
          .filter(
            (snapshot) =>
              (record(record(snapshot.spec).source).persistentVolumeClaimName === object.metadata.name && record(snapshot.status).readyToUse !== true) ||
              (snapshot.metadata.deletionTimestamp !== undefined && source.kind === "VolumeSnapshot" && source.name === snapshot.metadata.name),
          )
          .map(keyOf);
      }
      default:
        return [];
    }
  }

  reconcile(key: string): ReconcileResult | void {
    const { namespace, name } = splitKey(key);
    const snapshot = this.store.peek(refs.snapshots, namespace, name);
    if (!snapshot) return;
    if (snapshot.metadata.deletionTimestamp) return this.deleteSnapshot(snapshot);
    try {
      const classified = this.checkSnapshotClass(snapshot);
      if (!classified) return;
      return this.syncSnapshot(classified);
    } catch (error) {
      if (!(error instanceof SnapshotError)) throw error;
      this.reportError(snapshot, error);
      return { requeueAfterMs: this.retryMs };
    }
  }

  /**
   * checkAndUpdateSnapshotClass: a named class must exist; an unnamed one is set to the default
   * class of the claim's CSI driver (and the snapshot synced again once it is written).
   */
  private checkSnapshotClass(snapshot: StoredObject): StoredObject | undefined {
    const spec = record(snapshot.spec);
    const className = spec.volumeSnapshotClassName;
    if (typeof className === "string" && className) {
      if (!this.store.peek(refs.snapshotClasses, undefined, className)) {
        throw new SnapshotError(`volumesnapshotclass.snapshot.storage.k8s.io "${className}" not found`, "GetSnapshotClassFailed", "Failed to get snapshot class with error ", false);
      }
      return snapshot;
    }
    if (typeof record(spec.source).volumeSnapshotContentName === "string") return snapshot;
    const fail = (message: string) => new SnapshotError(message, "SetDefaultSnapshotClassFailed", "Failed to set default snapshot class with error ", false);
    const volume = this.volumeOf(snapshot, (message) => fail(message));
    const driver = record(record(volume.spec).csi).driver;
    if (typeof driver !== "string") throw fail(`snapshotting non-CSI volumes is not supported, snapshot:${keyOf(snapshot)}`);
    const defaults = this.store
      .list(refs.snapshotClasses)
      .filter((snapshotClass) => snapshotClass.metadata.annotations?.[DEFAULT_SNAPSHOT_CLASS_ANNOTATION] === "true" && snapshotClass.driver === driver);
    if (defaults.length === 0) throw fail("cannot find default snapshot class");
    if (defaults.length > 1) throw fail(`${defaults.length} default snapshot classes were found`);
    const next = clone(snapshot);
    next.spec = { ...spec, volumeSnapshotClassName: defaults[0]!.metadata.name };
    this.store.update(refs.snapshots, next);
    return undefined;
  }

  /** getVolumeFromVolumeSnapshot: the bound claim's PV, or the controller's error. */
  private volumeOf(snapshot: StoredObject, fail: (message: string) => SnapshotError): StoredObject {
    const claimName = String(record(record(snapshot.spec).source).persistentVolumeClaimName ?? "");
    const claim = this.store.peek(refs.claims, snapshot.metadata.namespace, claimName);
    if (!claim) throw fail(`failed to retrieve PVC ${claimName} from the lister: ${quote(`persistentvolumeclaim "${claimName}" not found`)}`);
    if (record(claim.status).phase !== "Bound") throw fail(`the PVC ${claimName} is not yet bound to a PV, will not attempt to take a snapshot`);
    const volumeName = String(record(claim.spec).volumeName ?? "");
    const volume = this.store.peek(refs.volumes, undefined, volumeName);
    if (!volume) throw fail(`failed to retrieve PV ${volumeName} from the API server: ${quote(`persistentvolumes "${volumeName}" not found`)}`);
    const ref = record(record(volume.spec).claimRef);
    if (ref.name !== claim.metadata.name || ref.namespace !== claim.metadata.namespace || (ref.uid && ref.uid !== claim.metadata.uid)) {
      throw fail("claim in dataSource not bound or invalid");
    }
    return volume;
  }

  private syncSnapshot(snapshot: StoredObject): ReconcileResult | void {
    const source = record(record(snapshot.spec).source);
    if (typeof source.volumeSnapshotContentName === "string") {
      // Pre-provisioned snapshots need VolumeSnapshotContent objects, which are not served here.
      throw new SnapshotError("VolumeSnapshotContent is missing", "SnapshotContentMissing", "", true);
    }
    const current = this.ensureFinalizers(snapshot);
    const snapshotStatus = record(current.status);
    if (snapshotStatus.readyToUse === true && typeof snapshotStatus.boundVolumeSnapshotContentName === "string") return;
    if (typeof snapshotStatus.boundVolumeSnapshotContentName !== "string") return this.createContent(current);
    return this.cut(current);
  }

  private ensureFinalizers(snapshot: StoredObject): StoredObject {
    const finalizers = snapshot.metadata.finalizers ?? [];
    const wanted = [SNAPSHOT_AS_SOURCE_FINALIZER, ...(typeof record(snapshot.status).boundVolumeSnapshotContentName === "string" ? [SNAPSHOT_BOUND_FINALIZER] : [])];
    const missing = wanted.filter((finalizer) => !finalizers.includes(finalizer));
    if (missing.length === 0) return snapshot;
    const next = clone(snapshot);
    next.metadata.finalizers = [...finalizers, ...missing];
    return this.store.update(refs.snapshots, next);
  }

  /** createSnapshotContent: checks the claim and its volume, then binds the content's name. */
  private createContent(snapshot: StoredObject): ReconcileResult {
    const fail = (message: string) => new SnapshotError(message, "SnapshotContentCreationFailed", "Failed to create snapshot content with error ", true);
    const claimName = String(record(record(snapshot.spec).source).persistentVolumeClaimName ?? "");
    const claim = this.store.peek(refs.claims, snapshot.metadata.namespace, claimName);
    if (!claim) throw fail(`snapshot controller failed to update ${snapshot.metadata.name} on API server: cannot get claim from snapshot`);
    if (claim.metadata.deletionTimestamp) throw fail(`snapshot controller failed to update ${claimName} on API server: cannot add finalizer on claim because it is being deleted`);
    const volume = this.volumeOf(snapshot, (message) => fail(`failed to get input parameters to create snapshot ${snapshot.metadata.name}: ${quote(message)}`));
    if (record(volume.spec).csi === undefined) throw fail(`cannot find CSI PersistentVolumeSource for volume ${volume.metadata.name}`);
    this.recorder.record(snapshot, "Normal", "CreatingSnapshot", `Waiting for a snapshot ${keyOf(snapshot)} to be created by the CSI driver.`, SNAPSHOT_COMPONENT);
    const next = clone(snapshot);
    next.status = { ...record(next.status), boundVolumeSnapshotContentName: `snapcontent-${snapshot.metadata.uid}`, readyToUse: false };
    this.store.update(refs.snapshots, next);
    this.cutting.set(snapshot.metadata.uid, this.clock.now().getTime() + this.snapshotDelayMs);
    return { requeueAfterMs: this.snapshotDelayMs };
  }

  /** The driver's snapshotter: after a while the volume's data is copied and the snapshot is ready. */
  private cut(snapshot: StoredObject): ReconcileResult | void {
    const snapshotClass = this.store.peek(refs.snapshotClasses, undefined, String(record(snapshot.spec).volumeSnapshotClassName ?? ""));
    // A class for a driver the simulated cluster does not run: nobody ever cuts it.
    if (provisionerProfile(String(snapshotClass?.driver ?? ""))?.kind !== "csi") return;
    const now = this.clock.now().getTime();
    const readyAt = this.cutting.get(snapshot.metadata.uid) ?? now + this.snapshotDelayMs;
    this.cutting.set(snapshot.metadata.uid, readyAt);
    if (now < readyAt) return { requeueAfterMs: readyAt - now };
    const volume = this.volumeOf(snapshot, (message) => new SnapshotError(message, "SnapshotContentCheckandUpdateFailed", "Failed to check and update snapshot content: ", false));
    this.volumes.takeSnapshot(snapshot.metadata.uid, volume.metadata.name);
    this.cutting.delete(snapshot.metadata.uid);
    const next = clone(snapshot);
    const { error: _error, ...rest } = record(next.status);
    next.status = {
      ...rest,
      creationTime: timestamp(this.clock.now()),
      readyToUse: true,
      restoreSize: formatBinaryQuantity(bytesOf(record(record(volume.spec).capacity).storage)),
    };
    this.store.update(refs.snapshots, next);
    this.recorder.record(snapshot, "Normal", "SnapshotCreated", `Snapshot ${keyOf(snapshot)} was successfully created by the CSI driver.`, SNAPSHOT_COMPONENT);
    this.recorder.record(snapshot, "Normal", "SnapshotReady", `Snapshot ${keyOf(snapshot)} is ready to use.`, SNAPSHOT_COMPONENT);
  }

  /** updateSnapshotErrorStatusWithEvent: once per distinct message. */
  private reportError(snapshot: StoredObject, error: SnapshotError): void {
    const message = error.prefix + error.message;
    const current = record(snapshot.status);
    if (record(current.error).message === message) return;
    const next = clone(snapshot);
    next.status = { ...current, error: { message, time: timestamp(this.clock.now()) }, ...(error.setReadyToFalse ? { readyToUse: false } : {}) };
    const updated = this.store.update(refs.snapshots, next);
    this.recorder.record(updated, "Warning", error.reason, message, SNAPSHOT_COMPONENT);
  }

  /**
   * A snapshot being deleted: not while a claim is still being restored from it; then its data
   * goes (deletionPolicy Delete) and the finalizers are removed.
   */
  private deleteSnapshot(snapshot: StoredObject): void {
    this.cutting.delete(snapshot.metadata.uid);
    const ours = [SNAPSHOT_AS_SOURCE_FINALIZER, SNAPSHOT_BOUND_FINALIZER];
    const finalizers = snapshot.metadata.finalizers ?? [];
    if (!finalizers.some((finalizer) => ours.includes(finalizer))) return;
    const bound = typeof record(snapshot.status).boundVolumeSnapshotContentName === "string";
    const restoring = this.store.list(refs.claims, snapshot.metadata.namespace).some((claim) => {
      const source = record(record(claim.spec).dataSourceRef ?? record(claim.spec).dataSource);
      return source.kind === "VolumeSnapshot" && source.name === snapshot.metadata.name && record(claim.status).phase === "Pending";
    });
    if (bound && restoring) {
      this.recorder.record(snapshot, "Warning", "SnapshotDeletePending", "Snapshot is being used to restore a PVC", SNAPSHOT_COMPONENT);
      return;
    }
    const snapshotClass = this.store.peek(refs.snapshotClasses, undefined, String(record(snapshot.spec).volumeSnapshotClassName ?? ""));
    if (snapshotClass?.deletionPolicy !== "Retain") this.volumes.deleteSnapshot(snapshot.metadata.uid);
    const next = clone(snapshot);
    next.metadata.finalizers = finalizers.filter((finalizer) => !ours.includes(finalizer));
    this.store.update(refs.snapshots, next);
  }
}
