import { resourceFor } from "../api/resources.ts";
import { strategyFor } from "../api/strategies.ts";
import { workerNode } from "../bootstrap.ts";
import { ManualClock } from "../clock.ts";
import { list, record, refs } from "../k8s-objects.ts";
import type { KubeObject, StoredObject } from "../objects.ts";
import { installStorageTopology, type StorageTopologyOptions } from "../storage-topology.ts";
import { ObjectStore } from "../store/object-store.ts";
import { VolumeContents } from "../volume-contents.ts";
import { addClaimProtection, ClaimProtectionController } from "./claim-protection.ts";
import { EventRecorder } from "./event-recorder.ts";
import { ReconcileLoop, type Reconciler } from "./reconciler.ts";
import { Scheduler, type SchedulerOptions } from "./scheduler.ts";
import { SnapshotController } from "./snapshot-controller.ts";
import { VolumeBinder } from "./volume-binder.ts";

// Helpers for tests that run real controllers over a real ObjectStore with a ManualClock.

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Lets queued reconciles run until every loop has been idle for two turns of the event loop. */
export async function drain(loops: ReconcileLoop[], maxTurns = 10_000): Promise<void> {
  let quiet = 0;
  for (let turn = 0; turn < maxTurns; turn++) {
    await tick();
    quiet = loops.every((loop) => loop.idle) ? quiet + 1 : 0;
    if (quiet >= 2) return;
  }
  throw new Error(`controllers did not settle within ${maxTurns} turns`);
}

/**
 * Runs the world until it rests: drains the queues, then moves simulated time forward `ms` in
 * steps of at most `stepMs`, draining after each, so that work a timer starts finishes before
 * the next timer is due.
 */
export async function settle(loops: ReconcileLoop[], clock: ManualClock, ms = 0, stepMs = 100): Promise<void> {
  await drain(loops);
  for (let passed = 0; passed < ms; ) {
    const step = Math.min(stepMs, ms - passed);
    await clock.advance(step);
    passed += step;
    await drain(loops);
  }
}

export interface VolumeClusterOptions extends StorageTopologyOptions {
  nodes?: number;
  provisionDelayMs?: number;
  scheduler?: Partial<Pick<SchedulerOptions, "wording" | "retryIntervalMs" | "bindTimeoutMs">>;
}

/** A store with worker nodes, the storage classes, and the scheduling and volume controllers running. */
export function volumeCluster(options: VolumeClusterOptions = {}) {
  const clock = new ManualClock();
  const store = new ObjectStore(clock);
  const recorder = new EventRecorder(store, clock);
  const volumes = new VolumeContents();
  trackEventOrder(store);
  for (let index = 0; index < (options.nodes ?? 3); index++) store.create(refs.nodes, workerNode(index));
  installStorageTopology(store, options);
  const scheduler = new Scheduler({ store, clock, recorder, ...options.scheduler });
  const binder = new VolumeBinder({ store, clock, recorder, volumes, provisionDelayMs: options.provisionDelayMs });
  const protection = new ClaimProtectionController(store);
  const snapshots = new SnapshotController({ store, clock, recorder, volumes });
  const reconcilers: Reconciler[] = [scheduler, binder, protection, snapshots];
  // A reconcile that throws is a bug in a test of these controllers: collect and report it.
  const errors: string[] = [];
  const loops = reconcilers.map((reconciler) => new ReconcileLoop(reconciler, store, clock, (name, key, error) => {
    errors.push(`${name} ${key}: ${(error as Error)?.stack ?? String(error)}`);
  }));
  for (const loop of loops) loop.start();
  return {
    clock,
    store,
    recorder,
    volumes,
    scheduler,
    binder,
    loops,
    errors,
    settle: async (ms = 0) => {
      await settle(loops, clock, ms);
      if (errors.length > 0) throw new Error(`controllers failed:\n${errors.join("\n")}`);
    },
    stop: () => loops.forEach((loop) => loop.stop()),
  };
}

export type VolumeCluster = ReturnType<typeof volumeCluster>;

/** Creates a pod as the API server would (defaults, tolerations, Pending status). */
export function createPod(store: ObjectStore, name: string, spec: Record<string, unknown> = {}, namespace = "default"): StoredObject {
  const pod: KubeObject = {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace },
    spec: { containers: [{ name: "main", image: "busybox" }], ...spec },
  };
  strategyFor(resourceFor("", "pods")).prepareForCreate?.(pod);
  return store.create(refs.pods, pod);
}

/** A pod spec that mounts the given claims. */
export function mounting(...claimNames: string[]): Record<string, unknown> {
  return { volumes: claimNames.map((claimName, index) => ({ name: `data-${index}`, persistentVolumeClaim: { claimName } })) };
}

export function createClaim(store: ObjectStore, name: string, spec: Record<string, unknown> = {}, namespace = "default"): StoredObject {
  const claim: KubeObject = {
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: { name, namespace },
    spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } }, ...spec },
  };
  strategyFor(resourceFor("", "persistentvolumeclaims")).prepareForCreate?.(claim);
  // The StorageObjectInUseProtection admission plugin's part.
  addClaimProtection(claim);
  return store.create(refs.claims, claim);
}

/** Reads an object's current state, failing the test if it is gone. */
export function current(store: ObjectStore, ref: { group: string; resource: string }, name: string, namespace?: string): StoredObject {
  const found = store.peek(ref, namespace, name);
  if (!found) throw new Error(`${ref.resource} ${namespace ? `${namespace}/` : ""}${name} does not exist`);
  return found;
}

export interface RecordedEvent {
  type: string;
  reason: string;
  message: string;
  source: string;
  count: number;
}

const eventOrder = new WeakMap<ObjectStore, Map<string, number>>();

/** Remembers in which order Events are created, which their timestamps (to the second) cannot tell. */
export function trackEventOrder(store: ObjectStore): void {
  if (eventOrder.has(store)) return;
  const order = new Map<string, number>();
  eventOrder.set(store, order);
  store.subscribe((event) => {
    if (event.resource === "events" && event.type === "ADDED") order.set(event.object.metadata.uid, order.size);
  });
}

/** The Events recorded about an object, in the order they were first recorded. */
export function eventsFor(store: ObjectStore, name: string, namespace = "default"): RecordedEvent[] {
  const order = eventOrder.get(store) ?? new Map<string, number>();
  return store
    .list(refs.events, namespace)
    .filter((event) => record(event.involvedObject).name === name)
    .sort((a, b) => String(a.firstTimestamp).localeCompare(String(b.firstTimestamp)) || (order.get(a.metadata.uid) ?? 0) - (order.get(b.metadata.uid) ?? 0))
    .map((event) => ({
      type: String(event.type),
      reason: String(event.reason),
      message: String(event.message),
      source: String(record(event.source).component),
      count: Number(event.count ?? 1),
    }));
}

export const podCondition = (pod: StoredObject, type: string) => list(record(pod.status).conditions).find((condition) => condition.type === type);

/** Changes an object in place through the store, as a client's update would. */
export function edit(store: ObjectStore, ref: { group: string; resource: string }, object: StoredObject, change: (draft: StoredObject) => void): StoredObject {
  const draft = structuredClone(object);
  change(draft);
  return store.update(ref, draft);
}
