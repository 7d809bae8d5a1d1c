import { podDeletionGrace } from "./strategies.ts";
import type { Clock } from "../clock.ts";
import {
  budgetSelectorOrNothing,
  budgetStatus,
  updateDisruptionAllowedCondition,
  writeBudgetStatus,
  type BudgetStatus,
} from "../controllers/disruption-controller.ts";
import { isPodReady, list, podPhase, record, refs, setCondition, timestamp } from "../k8s-objects.ts";
import { clone, isRecord, type KubeObject, type StoredObject } from "../objects.ts";
import { StatusError } from "../status-error.ts";
import type { ObjectStore, Preconditions } from "../store/object-store.ts";
import { parseObject } from "./http-io.ts";

// POST /api/v1/namespaces/{ns}/pods/{name}/eviction, as pkg/registry/core/pod/storage/eviction.go
// serves it: a pod that has already disrupted its workload (terminal, Pending, terminating) is
// deleted at once; otherwise its PodDisruptionBudget must allow one more disruption, which the
// eviction takes (disruptionsAllowed-1 and a disruptedPods entry) before the pod gets
// DisruptionTarget=True/EvictionByEvictionAPI and is deleted gracefully.

export interface EvictionDeps {
  store: ObjectStore;
  clock: Clock;
}

/** The Status a successful create of a subresource answers with (HTTP 201). */
export interface SuccessStatus {
  kind: "Status";
  apiVersion: "v1";
  metadata: Record<string, never>;
  status: "Success";
  code: 201;
}

export const successStatus = (): SuccessStatus => ({ kind: "Status", apiVersion: "v1", metadata: {}, status: "Success", code: 201 });

/** The API server refuses evictions once this many approved ones wait for the controller. */
export const MAX_DISRUPTED_POD_SIZE = 2000;

const EVICTION_VERSIONS = ["policy/v1", "policy/v1beta1"];
const VIOLATION = "Cannot evict pod as it would violate the pod's disruption budget.";

interface DeleteOptions {
  gracePeriodSeconds?: number;
  preconditions: Preconditions;
  propagationPolicy?: string;
  dryRun: boolean;
}

/** createTooManyRequestsError: the budget's status does not reflect its spec yet. */
function stillProcessing(budget: string): StatusError {
  return StatusError.tooManyRequests(VIOLATION, 10, [{ reason: "DisruptionBudget", message: `The disruption budget ${budget} is still being processed by the server.` }]);
}

function forbidden(budget: string, why: string): StatusError {
  return StatusError.of(403, "Forbidden", `poddisruptionbudget.policy "${budget}" is forbidden: ${why}`, { name: budget, group: "policy", kind: "poddisruptionbudget" });
}

function parseEviction(namespace: string, name: string, bodyText: string, queryDryRun: boolean): DeleteOptions {
  const eviction = parseObject(bodyText);
  const apiVersion = eviction.apiVersion;
  if (apiVersion !== undefined && !EVICTION_VERSIONS.includes(apiVersion)) {
    throw StatusError.badRequest(`the API version in the data (${apiVersion}) does not match the expected API version (policy/v1)`);
  }
  if (eviction.kind !== undefined && eviction.kind !== "Eviction") {
    throw StatusError.badRequest(`no kind "${eviction.kind}" is registered for version "${apiVersion ?? "policy/v1"}" in scheme "k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30"`);
  }
  if (eviction.metadata.namespace && eviction.metadata.namespace !== namespace) {
    throw StatusError.badRequest("the namespace of the provided object does not match the namespace sent on the request");
  }
  if ((eviction.metadata.name ?? "") !== name) throw StatusError.badRequest("name in URL does not match name in Eviction object");

  const options = record(eviction.deleteOptions);
  // propagateDryRun: the request's dryRun and the body's must agree when both are given.
  const bodyDryRun = list<unknown>(options.dryRun).map(String);
  if (queryDryRun && bodyDryRun.length > 0 && !(bodyDryRun.length === 1 && bodyDryRun[0] === "All")) {
    throw StatusError.of(500, "", `Non-matching dry-run options in request and content: [All] and [${bodyDryRun.join(" ")}]`);
  }
  const preconditions = record(options.preconditions);
  return {
    ...(typeof options.gracePeriodSeconds === "number" ? { gracePeriodSeconds: options.gracePeriodSeconds } : {}),
    preconditions: {
      ...(typeof preconditions.uid === "string" ? { uid: preconditions.uid } : {}),
      ...(typeof preconditions.resourceVersion === "string" ? { resourceVersion: preconditions.resourceVersion } : {}),
    },
    ...(typeof options.propagationPolicy === "string" ? { propagationPolicy: options.propagationPolicy } : {}),
    dryRun: queryDryRun || bodyDryRun.length > 0,
  };
}

const isTerminal = (pod: KubeObject) => ["Succeeded", "Failed"].includes(podPhase(pod));

/** canIgnorePDB: the pod's disruption has already happened, or it never ran. */
const canIgnoreBudget = (pod: StoredObject) => isTerminal(pod) || podPhase(pod) === "Pending" || Boolean(pod.metadata.deletionTimestamp);

/** shouldEnforceResourceVersion: don't race a pod that could still become Ready. */
const shouldEnforceResourceVersion = (pod: StoredObject) => !isTerminal(pod) && !pod.metadata.deletionTimestamp;

/** podStrategy.CheckGracefulDelete: the grace period a delete of this pod gets. */
/** The budgets in the pod's namespace whose (valid) selector matches it. */
function budgetsFor(store: ObjectStore, pod: StoredObject): StoredObject[] {
  return store.list(refs.budgets, pod.metadata.namespace).filter((pdb) => budgetSelectorOrNothing(pdb)?.matches(pod.metadata.labels ?? {}) ?? false);
}

/** checkAndDecrement: take one disruption from the budget, or say why not. */
function checkAndDecrement(deps: EvictionDeps, pdb: StoredObject, podName: string, dryRun: boolean): void {
  const status: BudgetStatus = budgetStatus(pdb);
  const name = pdb.metadata.name;
  if ((status.observedGeneration ?? 0) < (pdb.metadata.generation ?? 1)) throw stillProcessing(name);
  if (status.disruptionsAllowed < 0) throw forbidden(name, "pdb disruptions allowed is negative");
  if (Object.keys(status.disruptedPods ?? {}).length > MAX_DISRUPTED_POD_SIZE) {
    throw forbidden(name, "DisruptedPods map too big - too many evictions not confirmed by PDB controller");
  }
  if (status.disruptionsAllowed === 0) {
    throw StatusError.tooManyRequests(VIOLATION, undefined, [
      { reason: "DisruptionBudget", message: `The disruption budget ${name} needs ${status.desiredHealthy} healthy pods and has ${status.currentHealthy} currently` },
    ]);
  }
  const now = timestamp(deps.clock.now());
  status.disruptionsAllowed--;
  if (status.disruptionsAllowed === 0) updateDisruptionAllowedCondition(status, now);
  if (dryRun) return;
  // Tell the disruption controller this pod is about to go, so it stops counting it as healthy.
  status.disruptedPods = { ...(status.disruptedPods ?? {}), [podName]: now };
  writeBudgetStatus(deps.store, pdb, status);
}

/**
 * addConditionAndDeletePod: DisruptionTarget=True/EvictionByEvictionAPI on the latest pod (the
 * request's preconditions checked against it first), then the graceful delete.
 */
function addConditionAndDeletePod(deps: EvictionDeps, namespace: string, name: string, options: DeleteOptions): void {
  const preconditions: Preconditions = { ...options.preconditions };
  if (!options.dryRun) {
    const latest = deps.store.peek(refs.pods, namespace, name);
    if (!latest) throw StatusError.notFound(refs.pods, name);
    const podResource = { group: "", resource: "Pod" };
    if (preconditions.uid && preconditions.uid !== latest.metadata.uid) {
      throw StatusError.conflict(
        podResource,
        name,
        `the UID in the precondition (${preconditions.uid}) does not match the UID in record (${latest.metadata.uid}). The object might have been deleted and then recreated`,
      );
    }
    if (preconditions.resourceVersion && preconditions.resourceVersion !== latest.metadata.resourceVersion) {
      throw StatusError.conflict(
        podResource,
        name,
        `the ResourceVersion in the precondition (${preconditions.resourceVersion}) does not match the ResourceVersion in record (${latest.metadata.resourceVersion}). The object might have been modified`,
      );
    }
    const next = clone(latest);
    const changed = setCondition(
      next,
      { type: "DisruptionTarget", status: "True", lastProbeTime: null, reason: "EvictionByEvictionAPI", message: "Eviction API: evicting" },
      timestamp(deps.clock.now()),
    );
    if (changed) {
      const updated = deps.store.update(refs.pods, next);
      // We modified it ourselves: the request's resourceVersion precondition moves with it.
      if (preconditions.resourceVersion) preconditions.resourceVersion = updated.metadata.resourceVersion;
    }
  }
  const pod = deps.store.peek(refs.pods, namespace, name);
  if (!pod) throw StatusError.notFound(refs.pods, name);
  const policy = options.propagationPolicy;
  deps.store.delete(refs.pods, namespace, name, {
    preconditions,
    gracePeriodSeconds: podDeletionGrace(pod, options.gracePeriodSeconds),
    dryRun: options.dryRun,
    addFinalizers: policy === "Foreground" ? ["foregroundDeletion"] : policy === "Orphan" ? ["orphan"] : [],
  });
}

/**
 * Evicts a pod. Returns the Status to answer with 201; throws a StatusError (400, 403, 404,
 * 409, 429, 500) as the real handler does.
 */
export function evictPod(deps: EvictionDeps, namespace: string, name: string, bodyText: string, dryRun: boolean): SuccessStatus {
  const original = parseEviction(namespace, name, bodyText, dryRun);
  const pod = deps.store.peek(refs.pods, namespace, name);
  if (!pod) throw StatusError.notFound(refs.pods, name);

  if (canIgnoreBudget(pod)) {
    const options = shouldEnforceResourceVersion(pod) && !original.preconditions.resourceVersion
      ? { ...original, preconditions: { ...original.preconditions, resourceVersion: pod.metadata.resourceVersion } }
      : original;
    addConditionAndDeletePod(deps, namespace, name, options);
    return successStatus();
  }

  const budgets = budgetsFor(deps.store, pod);
  if (budgets.length > 1) {
    throw StatusError.of(500, "", "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.");
  }
  let options = original;
  const pdb = budgets[0];
  if (pdb) {
    let unhealthyMayGo = false;
    if (!isPodReady(pod)) {
      const status = budgetStatus(pdb);
      // An unready pod does not count as healthy: deleting it disrupts nothing the budget guards.
      unhealthyMayGo =
        record(pdb.spec).unhealthyPodEvictionPolicy === "AlwaysAllow" || (status.currentHealthy >= status.desiredHealthy && status.desiredHealthy > 0);
    }
    if (unhealthyMayGo) {
      // Make sure the pod has not become Ready since it was looked at.
      options = { ...original, preconditions: { ...original.preconditions, resourceVersion: pod.metadata.resourceVersion } };
    } else {
      checkAndDecrement(deps, pdb, name, original.dryRun);
    }
  }
  try {
    addConditionAndDeletePod(deps, namespace, name, options);
  } catch (error) {
    const ourPrecondition = options !== original && !original.preconditions.resourceVersion;
    if (pdb && ourPrecondition && error instanceof StatusError && error.status.reason === "Conflict") throw stillProcessing(pdb.metadata.name);
    throw error;
  }
  return successStatus();
}

/** A client-side Eviction body, for tests and the fault API. */
export function evictionBody(namespace: string, name: string, deleteOptions?: Record<string, unknown>): string {
  const body: Record<string, unknown> = { apiVersion: "policy/v1", kind: "Eviction", metadata: { name, namespace } };
  if (deleteOptions && isRecord(deleteOptions)) body.deleteOptions = deleteOptions;
  return JSON.stringify(body);
}
