import type { Clock } from "./clock.ts";
import { keyOf, list, nodeNameOf, record, refs } from "./k8s-objects.ts";
import type { StoredObject } from "./objects.ts";
import { StatusError } from "./status-error.ts";
import type { ObjectStore } from "./store/object-store.ts";

// `kubectl drain` as k8s.io/kubectl/pkg/drain does it: cordon; refuse, before evicting
// anything, pods kubectl's filters refuse; evict the rest through the Eviction API, retrying a
// 429 every 5 s; and report success only once every evicted pod is gone (deleted, or replaced
// by a pod of the same name with another uid), all within --timeout.

export interface DrainOptions {
  /** As --delete-emptydir-data: without it, pods with an emptyDir are refused. */
  deleteEmptyDirData?: boolean;
  /** As --force: without it, pods with no controller ownerReference are refused. */
  force?: boolean;
  /** Give up after this much simulated time, as `kubectl drain --timeout`. */
  timeoutSeconds?: number;
  gracePeriodSeconds?: number;
}

export interface DrainReport {
  node: string;
  cordoned: boolean;
  /** Pods whose eviction the API server accepted. */
  evicted: string[];
  /** Pods refused before eviction (an emptyDir without the flag, no controller without --force). */
  refused: string[];
  /** kubectl's reason for each refusal, naming its pods ("cannot delete Pods with local storage (…): default/box"). */
  refusals: string[];
  /** Pods whose eviction the budget kept refusing until the timeout. */
  blocked: string[];
  /** Evicted pods still not gone at the timeout (a long grace period, a lost node). */
  terminating: string[];
  /** True once every pod on the node was evicted and is gone. */
  completed: boolean;
  log: string[];
}

export interface DrainDeps {
  store: ObjectStore;
  clock: Clock;
  cordon: (node: string) => void;
  /** The Eviction API: throws (or rejects with) the StatusError it answers (429 while a budget refuses). */
  evict: (namespace: string, name: string, body: string) => Promise<unknown> | unknown;
}

const DEFAULT_TIMEOUT_SECONDS = 300;
const EVICTION_RETRY_MS = 5_000;
/** How often kubectl polls for an evicted pod to be gone. */
const DELETION_POLL_MS = 1_000;

/** kubectl's filter messages, in the order its filters run (the first that refuses a pod wins). */
const REFUSALS = [
  { message: "cannot delete Pods with local storage (use --delete-emptydir-data to override)", applies: (pod: StoredObject, options: DrainOptions) => !options.deleteEmptyDirData && hasEmptyDir(pod) },
  { message: "cannot delete Pods that declare no controller (use --force to override)", applies: (pod: StoredObject, options: DrainOptions) => !options.force && !hasController(pod) },
];

const hasEmptyDir = (pod: StoredObject) => list(record(pod.spec).volumes).some((volume) => volume.emptyDir !== undefined);
const hasController = (pod: StoredObject) => (pod.metadata.ownerReferences ?? []).some((owner) => owner.controller === true);

export async function drainNode(deps: DrainDeps, name: string, options: DrainOptions = {}): Promise<DrainReport> {
  const report: DrainReport = { node: name, cordoned: false, evicted: [], refused: [], refusals: [], blocked: [], terminating: [], completed: false, log: [] };
  deps.cordon(name);
  report.cordoned = true;
  report.log.push(`node/${name} cordoned`);
  const pods = deps.store.list(refs.pods).filter((pod) => nodeNameOf(pod) === name && !["Succeeded", "Failed"].includes(String(record(pod.status).phase)));

  const refusals = REFUSALS.map(({ message }) => ({ message, pods: [] as string[] }));
  for (const pod of pods) {
    const index = REFUSALS.findIndex((refusal) => refusal.applies(pod, options));
    if (index >= 0) refusals[index]!.pods.push(keyOf(pod));
  }
  const errors = refusals.filter((refusal) => refusal.pods.length > 0).map((refusal) => `${refusal.message}: ${refusal.pods.join(", ")}`);
  if (errors.length > 0) {
    report.refused = refusals.flatMap((refusal) => refusal.pods);
    report.refusals = errors;
    report.log.push(`error: unable to drain node "${name}" due to error: ${errors.length === 1 ? errors[0] : `[${errors.join(", ")}]`}`);
    return report;
  }
  const warnings = [
    ...(options.deleteEmptyDirData ? [{ text: "deleting Pods with local storage", pods: pods.filter(hasEmptyDir) }] : []),
    ...(options.force ? [{ text: "deleting Pods that declare no controller", pods: pods.filter((pod) => !hasController(pod)) }] : []),
  ].filter((warning) => warning.pods.length > 0);
  if (warnings.length > 0) report.log.push(`Warning: ${warnings.map((warning) => `${warning.text}: ${warning.pods.map(keyOf).join(", ")}`).join("; ")}`);

  const deadline = deps.clock.now().getTime() + (options.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000;
  const toEvict = new Map(pods.map((pod) => [keyOf(pod), { pod, nextAttempt: 0 }]));
  const toBeGone = new Map<string, StoredObject>();
  for (const pod of pods) report.log.push(`evicting pod ${keyOf(pod)}`);
  for (;;) {
    const now = deps.clock.now().getTime();
    for (const [key, entry] of toEvict) {
      if (entry.nextAttempt > now) continue;
      const outcome = await tryEviction(deps, entry.pod, options);
      if (typeof outcome === "object") {
        entry.nextAttempt = now + EVICTION_RETRY_MS;
        report.log.push(`error when evicting pods/"${entry.pod.metadata.name}" -n "${entry.pod.metadata.namespace}" (will retry after 5s): ${outcome.refusal}`);
        continue;
      }
      toEvict.delete(key);
      if (outcome === "evicted") {
        report.evicted.push(key);
        toBeGone.set(key, entry.pod);
      }
    }
    for (const [key, pod] of toBeGone) {
      if (!isGone(deps.store, pod)) continue;
      toBeGone.delete(key);
      report.log.push(`pod/${pod.metadata.name} evicted`);
    }
    if (toEvict.size === 0 && toBeGone.size === 0) break;
    if (deps.clock.now().getTime() + DELETION_POLL_MS > deadline) {
      report.blocked = [...toEvict.keys()];
      report.terminating = [...toBeGone.keys()];
      const timedOut = [
        ...[...toEvict.values()].map(({ pod }) => `error when evicting pods/"${pod.metadata.name}" -n "${pod.metadata.namespace}": global timeout reached`),
        ...[...toBeGone.values()].map((pod) => `error when waiting for pod "${pod.metadata.name}" in namespace "${pod.metadata.namespace}" to terminate: global timeout reached`),
      ];
      report.log.push(`error: unable to drain node "${name}" due to error: [${timedOut.join(", ")}]`);
      return report;
    }
    await deps.clock.sleep(DELETION_POLL_MS);
  }
  report.completed = true;
  report.log.push(`node/${name} drained`);
  return report;
}

/** One eviction: accepted, already gone (404), or refused by a budget for now (429). */
async function tryEviction(deps: DrainDeps, pod: StoredObject, options: DrainOptions): Promise<"evicted" | "gone" | { refusal: string }> {
  const body = JSON.stringify({
    apiVersion: "policy/v1",
    kind: "Eviction",
    metadata: { name: pod.metadata.name, namespace: pod.metadata.namespace },
    ...(options.gracePeriodSeconds !== undefined ? { deleteOptions: { gracePeriodSeconds: options.gracePeriodSeconds } } : {}),
  });
  try {
    await deps.evict(pod.metadata.namespace!, pod.metadata.name, body);
    return "evicted";
  } catch (error) {
    if (error instanceof StatusError && error.code === 404) return "gone";
    if (error instanceof StatusError && error.code === 429) return { refusal: error.message };
    throw error;
  }
}

/** kubectl's waitForDelete: the pod is gone, or its name now belongs to another pod. */
function isGone(store: ObjectStore, pod: StoredObject): boolean {
  const now = store.peek(refs.pods, pod.metadata.namespace, pod.metadata.name);
  return !now || now.metadata.uid !== pod.metadata.uid;
}
