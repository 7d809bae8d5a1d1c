import type { ManualClock } from "../clock.ts";
import { refs } from "../k8s-objects.ts";
import type { KubeObject, StoredObject } from "../objects.ts";
import type { ObjectStore } from "../store/object-store.ts";
import { ReconcileLoop, type Reconciler } from "./reconciler.ts";
import { drain, settle as settleOverTime } from "./test-support.ts";

// Test helpers for the garbage collector, namespace and disruption controllers: start loops on
// a real store, let them run until nothing is queued, move the manual clock.

export function startLoops(store: ObjectStore, clock: ManualClock, ...reconcilers: Reconciler[]): ReconcileLoop[] {
  const loops = reconcilers.map(
    (reconciler) =>
      new ReconcileLoop(reconciler, store, clock, (name, key, error) => {
        throw new Error(`${name} failed on ${key}: ${(error as Error)?.stack ?? String(error)}`);
      }),
  );
  for (const loop of loops) loop.start();
  return loops;
}

/** Runs the loops until every one is idle. */
export const settle = (loops: ReconcileLoop[]): Promise<void> => drain(loops);

/** Moves simulated time in one step, firing requeues, and lets the loops settle. */
export const advance = (clock: ManualClock, ms: number, loops: ReconcileLoop[]): Promise<void> => settleOverTime(loops, clock, ms, ms);

export function stopLoops(loops: ReconcileLoop[]): void {
  for (const loop of loops) loop.stop();
}

export function namespace(store: ObjectStore, name: string): StoredObject {
  return store.create(refs.namespaces, { apiVersion: "v1", kind: "Namespace", metadata: { name }, spec: { finalizers: ["kubernetes"] }, status: { phase: "Active" } });
}

/** A pod as the API server would store it; `node` schedules it, `ready` makes it Running and Ready. */
export function pod(
  store: ObjectStore,
  name: string,
  options: { namespace?: string; labels?: Record<string, string>; node?: string; ready?: boolean; owners?: StoredObject[]; grace?: number; phase?: string } = {},
): StoredObject {
  const object: KubeObject = {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name,
      namespace: options.namespace ?? "default",
      ...(options.labels ? { labels: options.labels } : {}),
      ...(options.owners
        ? {
            ownerReferences: options.owners.map((owner) => ({
              apiVersion: owner.apiVersion,
              kind: owner.kind,
              name: owner.metadata.name,
              uid: owner.metadata.uid,
              controller: true,
              blockOwnerDeletion: true,
            })),
          }
        : {}),
    },
    spec: {
      containers: [{ name: "main", image: "busybox" }],
      terminationGracePeriodSeconds: options.grace ?? 30,
      ...(options.node ? { nodeName: options.node } : {}),
    },
    status: {
      phase: options.phase ?? (options.ready ? "Running" : "Pending"),
      conditions: options.ready ? [{ type: "Ready", status: "True", lastProbeTime: null, lastTransitionTime: "2026-01-01T00:00:00Z" }] : [],
    },
  };
  return store.create(refs.pods, object);
}

/** What the kubelet does at the end of a graceful deletion. */
export function finishTermination(store: ObjectStore, namespaceName: string, name: string): void {
  store.delete(refs.pods, namespaceName, name, { gracePeriodSeconds: 0 });
}
