import type { Clock } from "../clock.ts";
import { keyOf, nodeNameOf, refs, setCondition, splitKey, timestamp } from "../k8s-objects.ts";
import { clone } from "../objects.ts";
import { StatusError } from "../status-error.ts";
import type { ObjectStore, StoreEvent } from "../store/object-store.ts";
import type { Reconciler, ReconcileResult } from "./reconciler.ts";

// The pod garbage collector's orphan sweep: a pod bound to a node that no longer exists can never
// be stopped by a kubelet, so it is marked DisruptionTarget/DeletionByPodGC and force-deleted.

const ORPHAN_GRACE_MS = 20_000;

export class PodGarbageCollector implements Reconciler {
  readonly name = "pod-gc";
  /** When each orphan was first seen without its node. */
  private readonly firstSeenMissing = new Map<string, number>();

  constructor(
    private readonly store: ObjectStore,
    private readonly clock: Clock,
  ) {}

  initialKeys(): string[] {
    return this.store.list(refs.pods).filter((pod) => nodeNameOf(pod)).map(keyOf);
  }

  keysFor(event: StoreEvent): string[] {
    if (event.resource === "nodes" && event.type === "DELETED") {
      return this.store.list(refs.pods).filter((pod) => nodeNameOf(pod) === event.object.metadata.name).map(keyOf);
    }
    if (event.resource === "pods" && event.type === "ADDED" && nodeNameOf(event.object)) return [keyOf(event.object)];
    return [];
  }

  reconcile(key: string): ReconcileResult | void {
    const { namespace, name } = splitKey(key);
    const pod = this.store.peek(refs.pods, namespace, name);
    const nodeName = pod ? nodeNameOf(pod) : undefined;
    if (!pod || !nodeName || this.store.peek(refs.nodes, undefined, nodeName)) {
      this.firstSeenMissing.delete(key);
      return;
    }
    // The real controller waits a quarantine period in case the node is only being re-registered.
    const missingSince = this.firstSeenMissing.get(key) ?? this.clock.now().getTime();
    this.firstSeenMissing.set(key, missingSince);
    const waited = this.clock.now().getTime() - missingSince;
    if (waited < ORPHAN_GRACE_MS) return { requeueAfterMs: ORPHAN_GRACE_MS - waited };
    this.firstSeenMissing.delete(key);
    const next = clone(pod);
    setCondition(next, { type: "DisruptionTarget", status: "True", reason: "DeletionByPodGC", message: "PodGC: node no longer exists" }, timestamp(this.clock.now()));
    try {
      const marked = this.store.update(refs.pods, next);
      this.store.delete(refs.pods, namespace, name, { gracePeriodSeconds: 0, preconditions: { uid: marked.metadata.uid } });
    } catch (error) {
      if (!(error instanceof StatusError && (error.code === 404 || error.code === 409))) throw error;
    }
  }
}
