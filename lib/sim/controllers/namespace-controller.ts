import type { Clock } from "../clock.ts";
import { RESOURCES, type ResourceDefinition } from "../api/resources.ts";
import { strategyFor } from "../api/strategies.ts";
import { list, record, refs, status, timestamp } from "../k8s-objects.ts";
import { clone, type StoredObject } from "../objects.ts";
import { StatusError } from "../status-error.ts";
import type { ObjectStore, StoreEvent } from "../store/object-store.ts";
import type { Reconciler, ReconcileResult } from "./reconciler.ts";

// The namespace controller (pkg/controller/namespace/deletion): a namespace being deleted is
// `Terminating`; everything namespaced in it is deleted (in the background, pods with their
// grace period); the namespace's conditions say what is left; once nothing is, the `kubernetes`
// finalizer leaves `spec.finalizers` and the namespace goes.
//
// The API layer is expected to hold a deleted namespace while `spec.finalizers` is not empty
// (as the namespace registry does). Should it have removed the namespace at once, the
// controller still clears out what was left in it when it sees the namespace go.

export const NAMESPACE_FINALIZER = "kubernetes";

/** What a real controller assumes a finalizer takes when it sees one on remaining content. */
const FINALIZER_ESTIMATE_SECONDS = 15;

/**
 * How long a sweep of a namespace takes at the least: a real controller discovers every API
 * group and deletes each kind of content in turn before it finalizes, so even an empty namespace
 * is seen Terminating for a moment rather than vanishing at once.
 */
const SWEEP_MS = 2_000;

interface NamespaceCondition {
  type: string;
  status: "True" | "False";
  lastTransitionTime?: string;
  reason: string;
  message: string;
}

const CONDITION_TYPES = [
  "NamespaceDeletionDiscoveryFailure",
  "NamespaceDeletionGroupVersionParsingFailure",
  "NamespaceDeletionContentFailure",
  "NamespaceContentRemaining",
  "NamespaceFinalizersRemaining",
] as const;

const OK: Record<(typeof CONDITION_TYPES)[number], { reason: string; message: string }> = {
  NamespaceDeletionDiscoveryFailure: { reason: "ResourcesDiscovered", message: "All resources successfully discovered" },
  NamespaceDeletionGroupVersionParsingFailure: { reason: "ParsedGroupVersions", message: "All legacy kube types successfully parsed" },
  NamespaceDeletionContentFailure: { reason: "ContentDeleted", message: "All content successfully deleted, may be waiting on finalization" },
  NamespaceContentRemaining: { reason: "ContentRemoved", message: "All content successfully removed" },
  NamespaceFinalizersRemaining: { reason: "ContentRemoved", message: "All content successfully removed" },
};

export interface NamespaceControllerOptions {
  /**
   * OrderedNamespaceDeletion (KEP-5080): delete pods first and the rest only once they are
   * gone. Off by default here: it needs every controller's creates to be refused in a
   * terminating namespace, or a controller that recreates pods keeps the namespace forever.
   */
  orderedDeletion?: boolean;
}

/** Key prefix for a namespace seen deleted (namespace names cannot contain ':'). */
const GONE = "gone:";

const NAMESPACED = RESOURCES.filter((definition) => definition.namespaced);

export class NamespaceController implements Reconciler {
  readonly name = "namespace";
  /** Objects (and pods) per namespace, kept from store events: when a namespace empties, without listing it. */
  private readonly counts = new Map<string, { all: number; pods: number }>();
  private counted = false;

  constructor(
    private readonly store: ObjectStore,
    private readonly clock: Clock,
    private readonly options: NamespaceControllerOptions = {},
  ) {}

  initialKeys(): string[] {
    this.counts.clear();
    for (const { object } of this.store.snapshot().objects) if (object.metadata.namespace) this.count(object.metadata.namespace, object.kind === "Pod", 1);
    this.counted = true;
    return this.store.list(refs.namespaces).filter((namespace) => namespace.metadata.deletionTimestamp).map((namespace) => namespace.metadata.name);
  }

  keysFor(event: StoreEvent): string[] {
    if (event.resource === "namespaces") {
      // A namespace that went away leaves nothing behind: clear out whatever is still in it.
      if (event.type === "DELETED") return [`${GONE}${event.object.metadata.name}`];
      return event.object.metadata.deletionTimestamp ? [event.object.metadata.name] : [];
    }
    const namespace = event.object.metadata.namespace;
    if (!namespace || event.type === "MODIFIED") return [];
    const isPod = event.resource === "pods";
    const counts = this.count(namespace, isPod, event.type === "ADDED" ? 1 : -1);
    if (event.type === "ADDED" || !this.store.peek(refs.namespaces, undefined, namespace)?.metadata.deletionTimestamp) return [];
    // Content of a terminating namespace went. Look again when the namespace is empty, or its
    // last pod went (ordered deletion moves on then); otherwise the estimate's requeue does.
    return !this.counted || counts.all === 0 || (isPod && counts.pods === 0) ? [namespace] : [];
  }

  private count(namespace: string, isPod: boolean, delta: number): { all: number; pods: number } {
    let counts = this.counts.get(namespace);
    if (!counts) this.counts.set(namespace, (counts = { all: 0, pods: 0 }));
    counts.all = Math.max(0, counts.all + delta);
    if (isPod) counts.pods = Math.max(0, counts.pods + delta);
    if (counts.all === 0 && delta < 0) this.counts.delete(namespace);
    return counts;
  }

  reconcile(key: string): ReconcileResult | void {
    if (key.startsWith(GONE)) {
      const name = key.slice(GONE.length);
      if (!this.store.peek(refs.namespaces, undefined, name)) this.deleteAllContent(name);
      return;
    }
    const name = key;
    let namespace = this.store.peek(refs.namespaces, undefined, name);
    if (!namespace?.metadata.deletionTimestamp) return;
    namespace = this.markTerminating(namespace);
    if (list<string>(record(namespace.spec).finalizers).length === 0) return this.removeWhenFinalized(namespace);

    const estimate = this.deleteAllContent(name, namespace);
    if (estimate > 0) return { requeueAfterMs: (Math.floor(estimate / 2) + 1) * 1000 };
    const remaining = this.remainingContent(name);
    if (remaining.count > 0) return { requeueAfterMs: FINALIZER_ESTIMATE_SECONDS * 1000 };
    const swept = this.clock.now().getTime() - Date.parse(String(namespace.metadata.deletionTimestamp));
    if (swept < SWEEP_MS) return { requeueAfterMs: SWEEP_MS - swept };

    // Nothing is left: finalize.
    const current = this.store.peek(refs.namespaces, undefined, name);
    if (!current) return;
    const next = clone(current);
    next.spec = { ...record(next.spec), finalizers: list<string>(record(next.spec).finalizers).filter((one) => one !== NAMESPACE_FINALIZER) };
    const finalized = this.store.update(refs.namespaces, next);
    if (this.store.peek(refs.namespaces, undefined, name)) this.removeWhenFinalized(finalized);
  }

  /** updateNamespaceStatusFunc: a namespace with a deletionTimestamp is Terminating. */
  private markTerminating(namespace: StoredObject): StoredObject {
    if (record(namespace.status).phase === "Terminating") return namespace;
    const next = clone(namespace);
    status(next).phase = "Terminating";
    return this.store.update(refs.namespaces, next);
  }

  /** A finalized namespace with no finalizers of its own is deleted (what the registry does on the finalize update). */
  private removeWhenFinalized(namespace: StoredObject): void {
    if (list<string>(record(namespace.spec).finalizers).length > 0 || (namespace.metadata.finalizers?.length ?? 0) > 0) return;
    try {
      this.store.delete(refs.namespaces, undefined, namespace.metadata.name, { preconditions: { uid: namespace.metadata.uid } });
    } catch (error) {
      if (!(error instanceof StatusError && (error.status.reason === "NotFound" || error.status.reason === "Conflict"))) throw error;
    }
  }

  /**
   * Deletes every namespaced object in the namespace that is not already going, and writes the
   * namespace's deletion conditions. Returns an estimate, in seconds, of how long the pods
   * still terminating will take (0 when none are).
   */
  private deleteAllContent(name: string, namespace?: StoredObject): number {
    const pods = this.store.list(refs.pods, name);
    const ordered = this.options.orderedDeletion === true;
    const toDelete: ResourceDefinition[] = ordered && pods.length > 0 ? NAMESPACED.filter((definition) => definition.resource === "pods" && definition.group === "") : NAMESPACED;
    for (const definition of toDelete) {
      for (const object of this.store.list(definition, name)) {
        if (object.metadata.deletionTimestamp) continue;
        try {
          this.store.delete(definition, name, object.metadata.name, {
            preconditions: { uid: object.metadata.uid },
            gracePeriodSeconds: strategyFor(definition).deletionGracePeriodSeconds?.(object) ?? 0,
          });
        } catch (error) {
          if (!(error instanceof StatusError && (error.status.reason === "NotFound" || error.status.reason === "Conflict"))) throw error;
        }
      }
    }
    const estimate = this.estimateGracefulTermination(name);
    if (namespace) this.writeConditions(name);
    return estimate;
  }

  /** estimateGracefulTermination: the longest grace period a pod still in the namespace has left. */
  private estimateGracefulTermination(name: string): number {
    const now = this.clock.now().getTime();
    let estimate = 0;
    for (const pod of this.store.list(refs.pods, name)) {
      const phase = record(pod.status).phase;
      if (phase === "Succeeded" || phase === "Failed") continue;
      const deadline = pod.metadata.deletionTimestamp ? Date.parse(pod.metadata.deletionTimestamp) : NaN;
      const grace = Number.isNaN(deadline)
        ? Number(record(pod.spec).terminationGracePeriodSeconds ?? 30)
        : Math.max(0, Math.ceil((deadline - now) / 1000));
      estimate = Math.max(estimate, grace);
    }
    return estimate;
  }

  private remainingContent(name: string): { count: number; byResource: Map<string, number>; byFinalizer: Map<string, number> } {
    const byResource = new Map<string, number>();
    const byFinalizer = new Map<string, number>();
    let count = 0;
    for (const definition of NAMESPACED) {
      const objects = this.store.list(definition, name);
      if (objects.length === 0) continue;
      count += objects.length;
      byResource.set(`${definition.resource}.${definition.group}`, objects.length);
      for (const object of objects) {
        for (const finalizer of object.metadata.finalizers ?? []) byFinalizer.set(finalizer, (byFinalizer.get(finalizer) ?? 0) + 1);
      }
    }
    return { count, byResource, byFinalizer };
  }

  /** The namespace_deleter's status conditions, with their real reasons and messages. */
  private writeConditions(name: string): void {
    const current = this.store.peek(refs.namespaces, undefined, name);
    if (!current) return;
    const { byResource, byFinalizer } = this.remainingContent(name);
    const failing = new Map<string, NamespaceCondition>();
    if (byResource.size > 0) {
      const remaining = [...byResource].map(([resource, count]) => `${resource} has ${count} resource instances`).sort();
      failing.set("NamespaceContentRemaining", {
        type: "NamespaceContentRemaining",
        status: "True",
        reason: "SomeResourcesRemain",
        message: `Some resources are remaining: ${remaining.join(", ")}`,
      });
    }
    if (byFinalizer.size > 0) {
      const remaining = [...byFinalizer].map(([finalizer, count]) => `${finalizer} in ${count} resource instances`).sort();
      failing.set("NamespaceFinalizersRemaining", {
        type: "NamespaceFinalizersRemaining",
        status: "True",
        reason: "SomeFinalizerRemain",
        message: `Some finalizers are remaining: ${remaining.join(", ")}`,
      });
    }
    const now = timestamp(this.clock.now());
    const conditions = list<NamespaceCondition>(record(current.status).conditions).map((condition) => ({ ...condition }));
    let changed = false;
    for (const type of CONDITION_TYPES) {
      const wanted = failing.get(type) ?? { type, status: "False" as const, ...OK[type] };
      const existing = conditions.find((condition) => condition.type === type);
      if (!existing) {
        conditions.push({ type, status: wanted.status, lastTransitionTime: now, reason: wanted.reason, message: wanted.message });
        changed = true;
      } else if (existing.status !== wanted.status || existing.reason !== wanted.reason || existing.message !== wanted.message) {
        if (existing.status !== wanted.status) existing.lastTransitionTime = now;
        existing.status = wanted.status;
        existing.reason = wanted.reason;
        existing.message = wanted.message;
        changed = true;
      }
    }
    if (!changed) return;
    const next = clone(current);
    status(next).conditions = conditions;
    this.store.update(refs.namespaces, next);
  }
}
