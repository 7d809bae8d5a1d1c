import type { Clock } from "../clock.ts";
import { controllerOf, findCondition, keyOf, record, refs, setControllerReference, splitKey } from "../k8s-objects.ts";
import { clone, deepEqual, type KubeObject, type StoredObject } from "../objects.ts";
import { apiFailure, StatusError } from "../status-error.ts";
import { resourceId, type ObjectStore, type StoreEvent } from "../store/object-store.ts";
import { createAsApiServer } from "./create-as-api-server.ts";
import type { EventRecorder } from "./event-recorder.ts";
import type { Reconciler, ReconcileResult } from "./reconciler.ts";
import {
  CREATED_BY_LABEL, DEPRECATED_POD_TEMPLATE_HASH_LABEL, LAUNCH_TYPE_LABEL, POD_NAME_ANNOTATION, SAFE_TO_EVICT_ANNOTATION, TEMPLATE_HASH_LABEL,
  TEMPLATE_REF_ANNOTATION, TEMPLATE_REF_HASH_LABEL, TEMPLATES, WARM_POOL_LABEL, WARM_POOLS, applySecureDefaults, blueprintHash, blueprintOf,
  controllerKeys, isSandboxReady, matchesTemplate, nameHash, podTemplateHash,
} from "./sandbox-extensions.ts";

// The SandboxWarmPool controller (extensions/controllers/sandboxwarmpool_controller.go): keeps
// `spec.replicas` (default 1) Sandboxes of the pool's template ready to be claimed.
// - Members are the Sandboxes labelled with the hash of the pool's name; orphans among them are
//   adopted (when they still match the template), ones another controller owns are ignored.
// - Pool Sandboxes are named `<pool>-<random>`, owned by the pool, labelled warm, with the
//   template's blueprint, the secure defaults, and the pool and template hashes on Sandbox and pod
//   template alike; their pods may be evicted by the cluster autoscaler.
// - A member not Ready 5 minutes after its creation is replaced, unless its pod is unschedulable
//   (a replacement would be too): then the pool holds it, says WarmPoolNotProgressing in a
//   Warning event and looks again each minute.
// - Surplus members go not-ready first, newest first. Under updateStrategy Recreate, members that
//   no longer match the template go at once; under OnReplenish (the default) they stay until
//   claimed.
// - The status: replicas (members), readyReplicas, the label selector (for /scale) and
//   observedGeneration, merge-patched when it changes.
// The controller's expectations (waiting for its own creates to be seen in its cache) are not
// needed here: the store is read directly. Replenish delay and refill rate are off, as by default.

const READINESS_GRACE_MS = 5 * 60_000;
const UNSCHEDULABLE_RECHECK_MS = 60_000;
const GRACE_REQUEUE_SLACK_MS = 2_000;
const MAX_BATCH = 300;

const SANDBOXES = refs.sandboxes;

interface Membership {
  active: StoredObject[];
  terminating: number;
  errors: string[];
}

export class SandboxWarmPoolController implements Reconciler {
  readonly name = "sandboxwarmpool";
  /** Pools that said WarmPoolNotProgressing, to say once when they progress again. */
  private readonly notProgressing = new Set<string>();

  constructor(
    private readonly store: ObjectStore,
    private readonly clock: Clock,
    private readonly recorder?: EventRecorder,
  ) {}

  initialKeys(): string[] {
    return this.store.list(WARM_POOLS).map(keyOf);
  }

  /** For(SandboxWarmPool), its Sandboxes by controller reference, and the pools of a changed template. */
  keysFor(event: StoreEvent): string[] {
    if (event.resource === resourceId(WARM_POOLS)) return [keyOf(event.object)];
    if (event.resource === resourceId(SANDBOXES)) return controllerKeys(event, "SandboxWarmPool");
    if (event.resource === resourceId(TEMPLATES)) {
      const namespace = event.object.metadata.namespace;
      return this.store
        .list(WARM_POOLS, namespace)
        .filter((pool) => record(record(pool.spec).sandboxTemplateRef).name === event.object.metadata.name)
        .map(keyOf);
    }
    return [];
  }

  reconcile(key: string): ReconcileResult | void {
    const pool = this.store.peek(WARM_POOLS, splitKey(key).namespace, splitKey(key).name);
    if (!pool || pool.metadata.deletionTimestamp) {
      this.notProgressing.delete(key);
      return;
    }
    const namespace = pool.metadata.namespace!;
    const poolHash = nameHash(pool.metadata.name);
    const spec = record(pool.spec);
    const templateName = String(record(spec.sandboxTemplateRef).name ?? "");
    const template = this.store.peek(TEMPLATES, namespace, templateName);
    const members = this.store.list(SANDBOXES, namespace).filter((sandbox) => sandbox.metadata.labels?.[WARM_POOL_LABEL] === poolHash);
    const { active: candidates, terminating: alreadyTerminating, errors } = this.sortMembers(pool, members, template);

    const now = this.clock.now().getTime();
    const active: StoredObject[] = [];
    let terminating = alreadyTerminating;
    let unschedulable = 0;
    let nextGraceDeadline: number | undefined;
    for (const sandbox of candidates) {
      const age = now - Date.parse(sandbox.metadata.creationTimestamp ?? "");
      if (isSandboxReady(sandbox) || !(age > READINESS_GRACE_MS)) {
        if (!isSandboxReady(sandbox)) {
          const remaining = READINESS_GRACE_MS - age + GRACE_REQUEUE_SLACK_MS;
          nextGraceDeadline = Math.min(nextGraceDeadline ?? remaining, remaining);
        }
        active.push(sandbox);
      } else if (this.podUnschedulable(sandbox)) {
        unschedulable++;
        active.push(sandbox);
      } else if (this.deleteMember(sandbox, errors)) {
        terminating++;
      } else {
        active.push(sandbox);
      }
    }

    const desired = typeof spec.replicas === "number" ? spec.replicas : 1;
    const next: Record<string, unknown> = {
      replicas: active.length,
      readyReplicas: active.filter(isSandboxReady).length,
      selector: `${WARM_POOL_LABEL}=${poolHash}`,
      observedGeneration: pool.metadata.generation ?? 1,
    };

    if (active.length + terminating < desired && template) {
      const blueprint = this.sandboxFrom(pool, poolHash, template);
      for (let made = 0; made < Math.min(desired - active.length - terminating, MAX_BATCH); made++) {
        try {
          createAsApiServer(this.store, SANDBOXES.group, SANDBOXES.resource, clone(blueprint));
        } catch (error) {
          errors.push(apiFailure(error));
          break;
        }
      }
    }
    if (active.length > desired) {
      const surplus = [...active].sort(surplusFirst).slice(0, Math.min(active.length - desired, MAX_BATCH));
      for (const sandbox of surplus) this.deleteMember(sandbox, errors);
    }

    let requeueAfterMs = nextGraceDeadline;
    if (unschedulable > 0) {
      this.sayProgress(pool, key, false, `${unschedulable}/${desired} sandboxes are unschedulable past the 5m0s readiness grace period; holding them instead of replacing (replacements would be equally unschedulable)`);
      requeueAfterMs = Math.min(requeueAfterMs ?? UNSCHEDULABLE_RECHECK_MS, UNSCHEDULABLE_RECHECK_MS);
    } else {
      this.sayProgress(pool, key, true, "Warm pool is progressing again");
    }
    this.writeStatus(pool, next);
    if (errors.length > 0) throw new Error(errors.join("\n"));
    return requeueAfterMs === undefined ? undefined : { requeueAfterMs };
  }

  /** filterActiveSandboxes: which labelled Sandboxes count, adopting orphans and removing stale ones. */
  private sortMembers(pool: StoredObject, members: StoredObject[], template: StoredObject | undefined): Membership {
    const result: Membership = { active: [], terminating: 0, errors: [] };
    const recreate = record(record(pool.spec).updateStrategy).type === "Recreate";
    const currentHash = template ? blueprintHash(template) : undefined;
    for (const member of members) {
      const owner = controllerOf(member);
      const orphan = owner === undefined;
      const mine = owner?.uid === pool.metadata.uid;
      if (member.metadata.deletionTimestamp) {
        if (mine) result.terminating++;
        continue;
      }
      if (!orphan && !mine) continue;
      if (template && (recreate || orphan) && this.isStale(member, template, currentHash!, orphan)) {
        if (this.deleteMember(member, result.errors) && mine) result.terminating++;
        continue;
      }
      let sandbox = member;
      if (orphan || sandbox.metadata.labels?.[LAUNCH_TYPE_LABEL] !== "warm") {
        const changed = clone(sandbox);
        if (orphan) setControllerReference(changed, pool);
        changed.metadata.labels = { ...changed.metadata.labels, [LAUNCH_TYPE_LABEL]: "warm" };
        try {
          sandbox = this.store.update(SANDBOXES, changed);
        } catch (error) {
          result.errors.push(apiFailure(error));
          continue;
        }
      }
      result.active.push(sandbox);
    }
    return result;
  }

  private isStale(sandbox: StoredObject, template: StoredObject, currentHash: string, orphan: boolean): boolean {
    if (sandbox.metadata.labels?.[TEMPLATE_REF_HASH_LABEL] !== nameHash(template.metadata.name)) return true;
    if (!orphan && sandbox.metadata.labels?.[TEMPLATE_HASH_LABEL] === currentHash) return false;
    return !matchesTemplate(template, sandbox);
  }

  /** The Sandbox the pool makes: the template's blueprint, labelled and owned by the pool. */
  private sandboxFrom(pool: StoredObject, poolHash: string, template: StoredObject): KubeObject {
    const templateName = template.metadata.name;
    const hashes = {
      [WARM_POOL_LABEL]: poolHash,
      [TEMPLATE_REF_HASH_LABEL]: nameHash(templateName),
      [DEPRECATED_POD_TEMPLATE_HASH_LABEL]: podTemplateHash(template),
      [TEMPLATE_HASH_LABEL]: blueprintHash(template),
    };
    const spec = blueprintOf(template.spec);
    const podTemplate = record(spec.podTemplate);
    const metadata = record(podTemplate.metadata);
    const annotations = record(metadata.annotations) as Record<string, string>;
    podTemplate.metadata = {
      ...metadata,
      labels: { ...(record(metadata.labels) as Record<string, string>), ...hashes },
      // --enable-warm-pool-eviction is on by default.
      annotations: { [SAFE_TO_EVICT_ANNOTATION]: "true", ...annotations },
    };
    const podSpec = record(podTemplate.spec);
    applySecureDefaults(template, podSpec);
    podTemplate.spec = podSpec;
    spec.podTemplate = podTemplate;
    const sandbox: KubeObject = {
      apiVersion: "agents.x-k8s.io/v1beta1",
      kind: "Sandbox",
      metadata: {
        generateName: `${pool.metadata.name}-`,
        namespace: pool.metadata.namespace,
        labels: { ...hashes, [LAUNCH_TYPE_LABEL]: "warm", [CREATED_BY_LABEL]: "controller" },
        annotations: { [TEMPLATE_REF_ANNOTATION]: templateName },
      },
      spec,
    };
    setControllerReference(sandbox, pool);
    return sandbox;
  }

  private deleteMember(sandbox: StoredObject, errors: string[]): boolean {
    try {
      this.store.delete(SANDBOXES, sandbox.metadata.namespace, sandbox.metadata.name, { preconditions: { uid: sandbox.metadata.uid } });
      return true;
    } catch (error) {
      if (error instanceof StatusError && error.code === 404) return true;
      errors.push(apiFailure(error));
      return false;
    }
  }

  /** isSandboxPodUnschedulable: the pod (by the pod-name annotation, else the Sandbox's name) cannot be placed. */
  private podUnschedulable(sandbox: StoredObject): boolean {
    const podName = sandbox.metadata.annotations?.[POD_NAME_ANNOTATION] || sandbox.metadata.name;
    const pod = this.store.peek(refs.pods, sandbox.metadata.namespace, podName);
    if (!pod || pod.metadata.deletionTimestamp) return false;
    const scheduled = findCondition(pod, "PodScheduled");
    return scheduled?.status === "False" && scheduled.reason === "Unschedulable";
  }

  private sayProgress(pool: StoredObject, key: string, progressing: boolean, message: string): void {
    if (progressing !== this.notProgressing.has(key)) return;
    if (progressing) this.notProgressing.delete(key);
    else this.notProgressing.add(key);
    this.recorder?.record(pool, progressing ? "Normal" : "Warning", progressing ? "WarmPoolProgressing" : "WarmPoolNotProgressing", message, "sandboxwarmpool-controller");
  }

  private writeStatus(pool: StoredObject, next: Record<string, unknown>): void {
    // omitempty: zero counts are not written.
    for (const field of ["replicas", "readyReplicas"]) if (next[field] === 0) delete next[field];
    if (deepEqual(record(pool.status), next)) return;
    const latest = this.store.peek(WARM_POOLS, pool.metadata.namespace, pool.metadata.name);
    if (!latest) return;
    this.store.update(WARM_POOLS, { ...latest, status: next });
  }
}

/** Surplus goes not-ready first, then newest first. */
function surplusFirst(a: StoredObject, b: StoredObject): number {
  const [readyA, readyB] = [isSandboxReady(a), isSandboxReady(b)];
  if (readyA !== readyB) return readyA ? 1 : -1;
  return String(b.metadata.creationTimestamp).localeCompare(String(a.metadata.creationTimestamp));
}
