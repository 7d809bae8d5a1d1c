import type { Clock } from "../clock.ts";
import { labelSelectorFromObject, type MetaLabelSelector } from "../api/selectors/index.ts";
import { podDeletionGrace } from "../api/strategies.ts";
import { controllerOf, findCondition, keyOf, ownerReferenceTo, podPhase, record, refs, splitKey, timestamp } from "../k8s-objects.ts";
import { clone, deepEqual, isRecord, type KubeObject, type StoredObject } from "../objects.ts";
import { StatusError } from "../status-error.ts";
import type { ObjectStore, StoreEvent } from "../store/object-store.ts";
import { createAsApiServer } from "./create-as-api-server.ts";
import type { Reconciler } from "./reconciler.ts";

// The ReplicaSet controller (pkg/controller/replicaset): keeps `spec.replicas` pods of its template
// running, each owned by the ReplicaSet, made from the template with generateName `<name>-`;
// surplus pods go the ones least along first (unscheduled, then pending, then not ready, then the
// newest); the status counts the pods it owns that are active, fully labelled, ready and available.
// Orphans its selector matches are not adopted (a real controller adopts them).

export const REPLICA_SETS = { group: "apps", resource: "replicasets" } as const;

const isActive = (pod: StoredObject) => !pod.metadata.deletionTimestamp && !["Succeeded", "Failed"].includes(podPhase(pod) ?? "");
const isReady = (pod: StoredObject) => findCondition(pod, "Ready")?.status === "True";

/** The order pods are given up in: the ones least along first (controller.ActivePods, reversed). */
function surplusOrder(a: StoredObject, b: StoredObject): number {
  const rank = (pod: StoredObject) => [record(pod.spec).nodeName ? 1 : 0, podPhase(pod) === "Running" ? 1 : 0, isReady(pod) ? 1 : 0];
  const [ra, rb] = [rank(a), rank(b)];
  for (let index = 0; index < ra.length; index++) if (ra[index] !== rb[index]) return ra[index]! - rb[index]!;
  // Newer pods go before older ones.
  return String(b.metadata.creationTimestamp).localeCompare(String(a.metadata.creationTimestamp));
}

export class ReplicaSetController implements Reconciler {
  readonly name = "replicaset";

  constructor(
    private readonly store: ObjectStore,
    private readonly clock: Clock,
  ) {}

  initialKeys(): string[] {
    return this.store.list(REPLICA_SETS).map(keyOf);
  }

  keysFor(event: StoreEvent): string[] {
    if (event.resource === "apps/replicasets") return [keyOf(event.object)];
    if (event.resource !== "pods") return [];
    const owner = controllerOf(event.object);
    return owner?.kind === "ReplicaSet" && owner.apiVersion === "apps/v1" ? [`${event.object.metadata.namespace}/${owner.name}`] : [];
  }

  reconcile(key: string): void {
    const { namespace, name } = splitKey(key);
    const replicaSet = this.store.peek(REPLICA_SETS, namespace, name);
    if (!replicaSet || replicaSet.metadata.deletionTimestamp) return;
    const spec = record(replicaSet.spec);
    const selector = labelSelectorFromObject(spec.selector as MetaLabelSelector);
    const owned = this.store
      .list(refs.pods, namespace)
      .filter((pod) => controllerOf(pod)?.uid === replicaSet.metadata.uid && selector.matches(pod.metadata.labels ?? {}));
    const active = owned.filter(isActive);
    const wanted = typeof spec.replicas === "number" ? spec.replicas : 1;
    let failure: string | undefined;
    if (active.length < wanted) {
      for (let made = active.length; made < wanted; made++) {
        try {
          createAsApiServer(this.store, "", "pods", this.podFrom(replicaSet));
        } catch (error) {
          if (!(error instanceof StatusError)) throw error;
          failure = error.message;
          break;
        }
      }
    } else if (active.length > wanted) {
      for (const pod of [...active].sort(surplusOrder).slice(0, active.length - wanted)) {
        try {
          this.store.delete(refs.pods, namespace, pod.metadata.name, { gracePeriodSeconds: podDeletionGrace(pod), preconditions: { uid: pod.metadata.uid } });
        } catch (error) {
          if (!(error instanceof StatusError && (error.code === 404 || error.code === 409))) throw error;
        }
      }
    }
    this.writeStatus(replicaSet, active, failure);
  }

  /** The pod the template describes, owned by the ReplicaSet. */
  private podFrom(replicaSet: StoredObject): KubeObject {
    const template = record(record(replicaSet.spec).template);
    const metadata = record(template.metadata);
    return {
      apiVersion: "v1",
      kind: "Pod",
      metadata: {
        generateName: `${replicaSet.metadata.name}-`,
        namespace: replicaSet.metadata.namespace,
        labels: { ...(metadata.labels as Record<string, string> | undefined) },
        ...(isRecord(metadata.annotations) ? { annotations: { ...(metadata.annotations as Record<string, string>) } } : {}),
        ownerReferences: [ownerReferenceTo(replicaSet)],
      },
      spec: clone(record(template.spec)),
    };
  }

  private writeStatus(replicaSet: StoredObject, active: StoredObject[], failure: string | undefined): void {
    const templateLabels = Object.entries(record(record(record(replicaSet.spec).template).metadata).labels ?? {});
    const ready = active.filter(isReady).length;
    const next: Record<string, unknown> = {
      replicas: active.length,
      fullyLabeledReplicas: active.filter((pod) => templateLabels.every(([key, value]) => pod.metadata.labels?.[key] === value)).length,
      readyReplicas: ready,
      // minReadySeconds is not honoured: a ready pod is available at once.
      availableReplicas: ready,
      observedGeneration: replicaSet.metadata.generation ?? 1,
      ...(failure
        ? { conditions: [{ type: "ReplicaFailure", status: "True", lastTransitionTime: timestamp(this.clock.now()), reason: "FailedCreate", message: failure }] }
        : {}),
    };
    for (const key of ["readyReplicas", "availableReplicas", "fullyLabeledReplicas"]) if (next[key] === 0) delete next[key];
    if (deepEqual(record(replicaSet.status), next)) return;
    this.store.update(REPLICA_SETS, { ...replicaSet, status: next });
  }
}
