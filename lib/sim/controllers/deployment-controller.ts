import type { Clock } from "../clock.ts";
import { controllerOf, keyOf, ownerReferenceTo, record, setCondition, splitKey, timestamp, type Condition } from "../k8s-objects.ts";
import { clone, deepEqual, type KubeObject, type StoredObject } from "../objects.ts";
import type { ObjectStore, StoreEvent } from "../store/object-store.ts";
import { createAsApiServer } from "./create-as-api-server.ts";
import type { Reconciler } from "./reconciler.ts";
import { REPLICA_SETS } from "./replica-set-controller.ts";

// The Deployment controller (pkg/controller/deployment): one ReplicaSet per pod template, named
// `<deployment>-<pod-template-hash>` and labelled with the hash; a RollingUpdate scales the new one
// up by at most maxSurge over the desired count and the old ones down while at least
// desired − maxUnavailable pods stay available; Recreate takes the old ones to zero first. Old
// ReplicaSets beyond revisionHistoryLimit go. The status sums the ReplicaSets' and says whether
// the Deployment is Available and how it is Progressing. (The progress deadline is not enforced,
// and paused Deployments only have their status kept.)

export const DEPLOYMENTS = { group: "apps", resource: "deployments" } as const;
export const POD_TEMPLATE_HASH_LABEL = "pod-template-hash";
const REVISION_ANNOTATION = "deployment.kubernetes.io/revision";
const DESIRED_ANNOTATION = "deployment.kubernetes.io/desired-replicas";
const MAX_ANNOTATION = "deployment.kubernetes.io/max-replicas";

/** rand.SafeEncodeString's alphabet: no vowels, no confusable digits. */
const SAFE = "bcdfghjklmnpqrstvwxz2456789";

/** controller.ComputeHash: FNV-1a of the template, its decimal digits written in the safe alphabet. */
export function podTemplateHash(template: unknown): string {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(JSON.stringify(template))) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return [...String(hash)].map((digit) => SAFE[digit.charCodeAt(0) % SAFE.length]).join("");
}

/** intstr.GetScaledValueFromIntOrPercent. */
function scaled(value: unknown, total: number, roundUp: boolean): number {
  if (typeof value === "number") return value;
  const percent = typeof value === "string" ? /^(\d+)%$/.exec(value) : null;
  if (!percent) return 0;
  const exact = (Number(percent[1]) * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

const replicasOf = (object: KubeObject) => Number(record(object.spec).replicas ?? 0);
const statusCount = (object: KubeObject, field: string) => Number(record(object.status)[field] ?? 0);
const revisionOf = (object: KubeObject) => Number(object.metadata.annotations?.[REVISION_ANNOTATION] ?? 0);

export class DeploymentController implements Reconciler {
  readonly name = "deployment";

  constructor(
    private readonly store: ObjectStore,
    private readonly clock: Clock,
  ) {}

  initialKeys(): string[] {
    return this.store.list(DEPLOYMENTS).map(keyOf);
  }

  keysFor(event: StoreEvent): string[] {
    if (event.resource === "apps/deployments") return [keyOf(event.object)];
    if (event.resource !== "apps/replicasets") return [];
    const owner = controllerOf(event.object);
    return owner?.kind === "Deployment" && owner.apiVersion === "apps/v1" ? [`${event.object.metadata.namespace}/${owner.name}`] : [];
  }

  reconcile(key: string): void {
    const { namespace, name } = splitKey(key);
    const deployment = this.store.peek(DEPLOYMENTS, namespace, name);
    if (!deployment || deployment.metadata.deletionTimestamp) return;
    const spec = record(deployment.spec);
    const desired = replicasOf(deployment);
    const hash = podTemplateHash(spec.template);
    const owned = this.store.list(REPLICA_SETS, namespace).filter((replicaSet) => controllerOf(replicaSet)?.uid === deployment.metadata.uid);
    let current = owned.find((replicaSet) => replicaSet.metadata.labels?.[POD_TEMPLATE_HASH_LABEL] === hash);
    const old = owned.filter((replicaSet) => replicaSet !== current).sort((a, b) => revisionOf(a) - revisionOf(b));
    const strategy = record(spec.strategy);
    const rolling = record(strategy.rollingUpdate);
    let maxSurge = strategy.type === "Recreate" ? 0 : scaled(rolling.maxSurge ?? "25%", desired, true);
    let maxUnavailable = strategy.type === "Recreate" ? desired : scaled(rolling.maxUnavailable ?? "25%", desired, false);
    if (maxSurge === 0 && maxUnavailable === 0) maxUnavailable = 1;
    let created = false;

    if (spec.paused !== true) {
      const oldReplicas = old.reduce((sum, replicaSet) => sum + replicasOf(replicaSet), 0);
      if (strategy.type === "Recreate") {
        for (const replicaSet of old) this.scale(replicaSet, 0, desired, maxSurge);
        const oldPods = old.reduce((sum, replicaSet) => sum + statusCount(replicaSet, "replicas"), 0);
        if (oldPods === 0) current = current ? this.scale(current, desired, desired, maxSurge) : this.createReplicaSet(deployment, hash, desired, old, maxSurge);
        created = current !== undefined && !owned.includes(current);
      } else {
        if (!current) {
          current = this.createReplicaSet(deployment, hash, oldReplicas === 0 ? desired : Math.max(0, Math.min(desired, desired + maxSurge - oldReplicas)), old, maxSurge);
          created = true;
        } else {
          const total = oldReplicas + replicasOf(current);
          const target = replicasOf(current) > desired ? desired : Math.min(desired, replicasOf(current) + Math.max(0, desired + maxSurge - total));
          current = this.scale(current, target, desired, maxSurge);
        }
        this.scaleDownOld(old, current, desired, maxUnavailable, maxSurge);
      }
      this.cleanUp(old, Number(spec.revisionHistoryLimit ?? 10));
    }
    this.writeStatus(deployment, current, old, { desired, maxUnavailable, created });
  }

  private createReplicaSet(deployment: StoredObject, hash: string, replicas: number, old: StoredObject[], maxSurge: number): StoredObject {
    const spec = record(deployment.spec);
    const template = clone(record(spec.template));
    const templateMetadata = record(template.metadata);
    templateMetadata.labels = { ...(templateMetadata.labels as Record<string, string> | undefined), [POD_TEMPLATE_HASH_LABEL]: hash };
    template.metadata = templateMetadata;
    const selector = clone(record(spec.selector));
    selector.matchLabels = { ...(selector.matchLabels as Record<string, string> | undefined), [POD_TEMPLATE_HASH_LABEL]: hash };
    const revision = Math.max(0, ...old.map(revisionOf)) + 1;
    return createAsApiServer(this.store, "apps", "replicasets", {
      apiVersion: "apps/v1",
      kind: "ReplicaSet",
      metadata: {
        name: `${deployment.metadata.name}-${hash}`,
        namespace: deployment.metadata.namespace,
        labels: { ...(templateMetadata.labels as Record<string, string>) },
        annotations: { [REVISION_ANNOTATION]: String(revision), [DESIRED_ANNOTATION]: String(replicasOf(deployment)), [MAX_ANNOTATION]: String(replicasOf(deployment) + maxSurge) },
        ownerReferences: [ownerReferenceTo(deployment)],
      },
      spec: { replicas, selector, template },
    });
  }

  /** Sets a ReplicaSet's replicas (and the annotations that say what the Deployment wanted); returns it as stored. */
  private scale(replicaSet: StoredObject, replicas: number, desired: number, maxSurge: number): StoredObject {
    const annotations = { ...replicaSet.metadata.annotations, [DESIRED_ANNOTATION]: String(desired), [MAX_ANNOTATION]: String(desired + maxSurge) };
    if (replicasOf(replicaSet) === replicas && deepEqual(annotations, replicaSet.metadata.annotations)) return replicaSet;
    return this.store.update(REPLICA_SETS, { ...replicaSet, metadata: { ...replicaSet.metadata, annotations }, spec: { ...record(replicaSet.spec), replicas } });
  }

  /** Old pods that are not available go first; available ones only while desired − maxUnavailable stay available. */
  private scaleDownOld(old: StoredObject[], current: StoredObject, desired: number, maxUnavailable: number, maxSurge: number): void {
    const available = [...old, current].reduce((sum, replicaSet) => sum + statusCount(replicaSet, "availableReplicas"), 0);
    let healthyToRemove = Math.max(0, available - (desired - maxUnavailable));
    for (const replicaSet of old) {
      const replicas = replicasOf(replicaSet);
      if (replicas === 0) continue;
      const unhealthy = Math.max(0, replicas - statusCount(replicaSet, "availableReplicas"));
      const healthy = Math.min(replicas - unhealthy, healthyToRemove);
      healthyToRemove -= healthy;
      this.scale(replicaSet, replicas - unhealthy - healthy, desired, maxSurge);
    }
  }

  /** Old ReplicaSets with nothing left beyond revisionHistoryLimit go, oldest first. */
  private cleanUp(old: StoredObject[], limit: number): void {
    const empty = old.filter((replicaSet) => replicasOf(replicaSet) === 0 && statusCount(replicaSet, "replicas") === 0);
    for (const replicaSet of empty.slice(0, Math.max(0, empty.length - limit))) {
      this.store.delete(REPLICA_SETS, replicaSet.metadata.namespace, replicaSet.metadata.name, {});
    }
  }

  private writeStatus(deployment: StoredObject, current: StoredObject | undefined, old: StoredObject[], rollout: { desired: number; maxUnavailable: number; created: boolean }): void {
    const all = [...old, ...(current ? [current] : [])];
    const sum = (field: string) => all.reduce((total, replicaSet) => total + statusCount(replicaSet, field), 0);
    const available = sum("availableReplicas");
    const specified = all.reduce((total, replicaSet) => total + replicasOf(replicaSet), 0);
    const updated = current ? statusCount(current, "replicas") : 0;
    const next: StoredObject = clone(deployment);
    const now = timestamp(this.clock.now());
    const status: Record<string, unknown> = {
      observedGeneration: deployment.metadata.generation ?? 1,
      replicas: sum("replicas"),
      updatedReplicas: updated,
      readyReplicas: sum("readyReplicas"),
      availableReplicas: available,
      unavailableReplicas: Math.max(0, specified - available),
      conditions: record(deployment.status).conditions ?? [],
    };
    for (const field of ["replicas", "updatedReplicas", "readyReplicas", "availableReplicas", "unavailableReplicas"]) if (status[field] === 0) delete status[field];
    next.status = status;
    const condition = (type: string, conditionStatus: Condition["status"], reason: string, message: string) => {
      const before = (record(deployment.status).conditions as (Condition & { lastUpdateTime?: string })[] | undefined)?.find((one) => one.type === type);
      const unchanged = before && before.status === conditionStatus && before.reason === reason && before.message === message;
      setCondition(next, { type, status: conditionStatus, reason, message, ...{ lastUpdateTime: unchanged ? before.lastUpdateTime : now } } as Condition, now);
    };
    const minimum = available >= rollout.desired - rollout.maxUnavailable;
    condition("Available", minimum ? "True" : "False", minimum ? "MinimumReplicasAvailable" : "MinimumReplicasUnavailable", minimum ? "Deployment has minimum availability." : "Deployment does not have minimum availability.");
    if (current) {
      const complete = updated === rollout.desired && sum("replicas") === rollout.desired && available === rollout.desired && statusCount(current, "availableReplicas") === rollout.desired;
      if (complete) condition("Progressing", "True", "NewReplicaSetAvailable", `ReplicaSet "${current.metadata.name}" has successfully progressed.`);
      else if (rollout.created) condition("Progressing", "True", "NewReplicaSetCreated", `Created new replica set "${current.metadata.name}"`);
      else condition("Progressing", "True", "ReplicaSetUpdated", `ReplicaSet "${current.metadata.name}" is progressing.`);
      next.metadata.annotations = { ...next.metadata.annotations, [REVISION_ANNOTATION]: current.metadata.annotations?.[REVISION_ANNOTATION] ?? "1" };
    }
    if (deepEqual(next.status, deployment.status) && deepEqual(next.metadata.annotations, deployment.metadata.annotations)) return;
    this.store.update(DEPLOYMENTS, next, { keepGeneration: true });
  }
}
