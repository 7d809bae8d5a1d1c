import { bindingBody, bindPod } from "../api/binding.ts";
import type { Clock } from "../clock.ts";
import { keyOf, list, nodeNameOf, podPhase, record, refs, setCondition, splitKey, timestamp } from "../k8s-objects.ts";
import { clone, type KubeObject, type StoredObject } from "../objects.ts";
import { claimClassName } from "../storage-topology.ts";
import type { ObjectStore, StoreEvent } from "../store/object-store.ts";
import { parseQuantity } from "../../domain/quantity.ts";
import type { EventRecorder } from "./event-recorder.ts";
import {
  findUntoleratedTaint, podMatchesNode, taintsOf, tolerates, tolerationsOf, UNSCHEDULABLE_TAINT, volumeMatchesNode, type Taint,
} from "./node-affinity.ts";
import type { Reconciler, ReconcileResult } from "./reconciler.ts";

// kube-scheduler's default profile in miniature. For each pod that names no node: the
// VolumeBinding PreFilter (claims exist, immediate claims are bound), then the Filter plugins in
// the default order, each node stopping at its first failure — NodeUnschedulable,
// TaintToleration, NodeAffinity, NodeResourcesFit, VolumeBinding — then either a binding to the
// least loaded feasible node or PodScheduled=False/Unschedulable with FitError's message and a
// FailedScheduling event. WaitForFirstConsumer claims get the chosen node in
// volume.kubernetes.io/selected-node and the pod is bound (through the binding subresource)
// once they are, as PreBind waits. Which node was chosen can always be read back from that
// annotation: what lives in memory — the pod index, the assume cache, the PreBind timeout — is
// rebuilt from the store after a restart.

export const SCHEDULER_NAME = "default-scheduler";
export const SELECTED_NODE_ANNOTATION = "volume.kubernetes.io/selected-node";
const BIND_COMPLETED_ANNOTATION = "pv.kubernetes.io/bind-completed";

/** Where scheduler messages changed between Kubernetes minor versions. */
export interface SchedulerWording {
  /** VolumeBinding's ErrReasonNodeConflict (reworded in 1.33, kubernetes/kubernetes#129887). */
  volumeNodeConflict: string;
  /** TaintToleration's Filter reason. */
  untoleratedTaint: (taint: Taint) => string;
  /**
   * What PostFilter plugins ahead of DefaultPreemption say, joined with ", " before its message:
   * DynamicResources (on by default from 1.34) says "no new claims to deallocate".
   */
  postFilterPrefix: string;
}

const taintWithValue = (taint: Taint) => `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ""}}`;

export const SCHEDULER_WORDING = {
  "1.32": { volumeNodeConflict: "node(s) had volume node affinity conflict", untoleratedTaint: taintWithValue, postFilterPrefix: "" },
  "1.33": { volumeNodeConflict: "node(s) didn't match PersistentVolume's node affinity", untoleratedTaint: taintWithValue, postFilterPrefix: "" },
  // v1.34.0, which the simulated API server reports. Later 1.34 patches (kubernetes#135023) say
  // "node(s) had untolerated taint(s)" without the key; 1.37 no longer adds the DRA clause.
  "1.34": {
    volumeNodeConflict: "node(s) didn't match PersistentVolume's node affinity",
    untoleratedTaint: taintWithValue,
    postFilterPrefix: "no new claims to deallocate, ",
  },
} satisfies Record<string, SchedulerWording>;

// Filter reasons that do not depend on the version.
export const REASON_UNSCHEDULABLE = "node(s) were unschedulable";
export const REASON_NODE_AFFINITY = "node(s) didn't match Pod's node affinity/selector";
export const REASON_BIND_CONFLICT = "node(s) didn't find available persistent volumes to bind";
export const REASON_PV_NOT_EXIST = "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)";
export const REASON_UNBOUND_IMMEDIATE = "pod has unbound immediate PersistentVolumeClaims";
const NOT_HELPFUL = "Preemption is not helpful for scheduling";
const NO_VICTIMS = "No preemption victims found for incoming pod";
const NO_NODES = "no nodes available to schedule pods";

// ---- pure parts ----

export type StatusCode = "Unschedulable" | "UnschedulableAndUnresolvable";

export interface NodeStatus {
  code: StatusCode;
  reasons: string[];
}

/** A node's requests as NodeInfo keeps them: real requests, and the non-zero ones scoring uses. */
export interface Requests {
  milliCpu: number;
  memory: number;
  nonZeroMilliCpu: number;
  nonZeroMemory: number;
}

// schedutil.DefaultMilliCPURequest / DefaultMemoryRequest: what scoring assumes for a container
// that requests nothing.
const DEFAULT_MILLI_CPU = 100;
const DEFAULT_MEMORY = 200 * 1024 * 1024;

const milliCpuOf = (quantity: unknown) => (typeof quantity === "string" || typeof quantity === "number" ? Math.ceil((parseQuantity(String(quantity)) ?? 0) * 1000) : 0);
const bytesOf = (quantity: unknown) => (typeof quantity === "string" || typeof quantity === "number" ? Math.ceil(parseQuantity(String(quantity)) ?? 0) : 0);

function containerRequests(container: Record<string, unknown>): Requests {
  const resources = record(container.resources);
  // API defaulting copies limits into missing requests.
  const requests = { ...record(resources.limits), ...record(resources.requests) };
  const milliCpu = milliCpuOf(requests.cpu);
  const memory = bytesOf(requests.memory);
  return {
    milliCpu,
    memory,
    nonZeroMilliCpu: requests.cpu === undefined ? DEFAULT_MILLI_CPU : milliCpu,
    nonZeroMemory: requests.memory === undefined ? DEFAULT_MEMORY : memory,
  };
}

const ZERO: Requests = { milliCpu: 0, memory: 0, nonZeroMilliCpu: 0, nonZeroMemory: 0 };
const add = (a: Requests, b: Requests): Requests => ({
  milliCpu: a.milliCpu + b.milliCpu,
  memory: a.memory + b.memory,
  nonZeroMilliCpu: a.nonZeroMilliCpu + b.nonZeroMilliCpu,
  nonZeroMemory: a.nonZeroMemory + b.nonZeroMemory,
});
const max = (a: Requests, b: Requests): Requests => ({
  milliCpu: Math.max(a.milliCpu, b.milliCpu),
  memory: Math.max(a.memory, b.memory),
  nonZeroMilliCpu: Math.max(a.nonZeroMilliCpu, b.nonZeroMilliCpu),
  nonZeroMemory: Math.max(a.nonZeroMemory, b.nonZeroMemory),
});

/**
 * resource.PodRequests: the containers' sum, raised to any single init container's request
 * (sidecars — init containers with restartPolicy Always — run alongside and add), plus overhead.
 */
export function podRequests(pod: KubeObject): Requests {
  const spec = record(pod.spec);
  let total = list(spec.containers).map(containerRequests).reduce(add, ZERO);
  let sidecars = ZERO;
  let initMax = ZERO;
  for (const init of list(spec.initContainers)) {
    const requests = containerRequests(init);
    if (init.restartPolicy === "Always") {
      sidecars = add(sidecars, requests);
      initMax = max(initMax, sidecars);
    } else initMax = max(initMax, add(requests, sidecars));
  }
  total = max(add(total, sidecars), initMax);
  const overhead = record(spec.overhead);
  return add(total, { milliCpu: milliCpuOf(overhead.cpu), memory: bytesOf(overhead.memory), nonZeroMilliCpu: milliCpuOf(overhead.cpu), nonZeroMemory: bytesOf(overhead.memory) });
}

export interface Allocatable {
  milliCpu: number;
  memory: number;
  pods: number;
}

/** status.allocatable (capacity when absent); a node that states neither is treated as unbounded. */
export function allocatableOf(node: KubeObject): Allocatable {
  const status = record(node.status);
  const resources = record(status.allocatable ?? status.capacity);
  if (Object.keys(resources).length === 0) return { milliCpu: Infinity, memory: Infinity, pods: Infinity };
  return { milliCpu: milliCpuOf(resources.cpu), memory: bytesOf(resources.memory), pods: Math.floor(Number(parseQuantity(String(resources.pods ?? "0")) ?? 0)) };
}

export interface NodeUsage {
  requests: Requests;
  pods: number;
}

/** NodeResourcesFit's Filter: the pod count first, then each requested resource. */
export function fitsResources(pod: Requests, usage: NodeUsage, allocatable: Allocatable): NodeStatus | null {
  const reasons: string[] = [];
  let unresolvable = false;
  if (usage.pods + 1 > allocatable.pods) reasons.push("Too many pods");
  if (pod.milliCpu > 0 && pod.milliCpu > allocatable.milliCpu - usage.requests.milliCpu) {
    reasons.push("Insufficient cpu");
    // A request larger than the whole node cannot be helped by preempting anything.
    if (pod.milliCpu > allocatable.milliCpu) unresolvable = true;
  }
  if (pod.memory > 0 && pod.memory > allocatable.memory - usage.requests.memory) {
    reasons.push("Insufficient memory");
    if (pod.memory > allocatable.memory) unresolvable = true;
  }
  if (reasons.length === 0) return null;
  return { code: unresolvable ? "UnschedulableAndUnresolvable" : "Unschedulable", reasons };
}

function histogram(reasons: string[]): string {
  const counts = new Map<string, number>();
  for (const reason of reasons) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  // Go's sort.Strings over "<count> <reason>": byte order, so "10 x" sorts before "2 y".
  return [...counts].map(([reason, count]) => `${count} ${reason}`).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).join(", ");
}

/**
 * DefaultPreemption's PostFilter message when it finds no candidate: nodes rejected as
 * unresolvable are not helpful, the others yield no victims (the simulated cluster preempts
 * nothing on its own; all its pods have the same priority).
 */
export function preemptionMessage(pod: KubeObject, statuses: NodeStatus[]): string {
  if (record(pod.spec).preemptionPolicy === "Never") return "preemption: not eligible due to preemptionPolicy=Never.";
  const reasons = statuses.map((status) => (status.code === "UnschedulableAndUnresolvable" ? NOT_HELPFUL : NO_VICTIMS));
  return `preemption: 0/${statuses.length} nodes are available: ${histogram(reasons)}.`;
}

/**
 * FitError.Error(): "0/N nodes are available: <PreFilterMsg or sorted filter reasons>. <PostFilterMsg>".
 * When PreFilter rejected the pod, every node carries that one status and the histogram is left
 * out so that the reason is not repeated.
 */
export function fitErrorMessage(numNodes: number, diagnosis: { preFilterMessage?: string; statuses: NodeStatus[] }, postFilterMessage: string): string {
  let message = `0/${numNodes} nodes are available:`;
  if (diagnosis.preFilterMessage) message += ` ${diagnosis.preFilterMessage}.`;
  else {
    const sorted = histogram(diagnosis.statuses.flatMap((status) => status.reasons));
    if (sorted) message += ` ${sorted}.`;
  }
  if (postFilterMessage) message += ` ${postFilterMessage}`;
  return message;
}

/** Claim names a pod's volumes refer to, with how a missing one is reported. */
export function podClaimNames(pod: KubeObject): { name: string; ephemeral: boolean }[] {
  return list(record(pod.spec).volumes).flatMap((volume): { name: string; ephemeral: boolean }[] => {
    const claimName = record(volume.persistentVolumeClaim).claimName;
    if (typeof claimName === "string") return [{ name: claimName, ephemeral: false }];
    if (record(volume.ephemeral).volumeClaimTemplate !== undefined) return [{ name: `${pod.metadata.name}-${String(volume.name)}`, ephemeral: true }];
    return [];
  });
}

/** Whether a pod event could change a scheduling decision: anything but status and bookkeeping. */
function changedForScheduling(event: StoreEvent): boolean {
  if (event.type !== "MODIFIED" || !event.previous) return true;
  const before = event.previous;
  const after = event.object;
  return (
    JSON.stringify(before.spec) !== JSON.stringify(after.spec) ||
    JSON.stringify(before.metadata.labels ?? {}) !== JSON.stringify(after.metadata.labels ?? {}) ||
    before.metadata.deletionTimestamp !== after.metadata.deletionTimestamp
  );
}

// ---- the controller ----

export interface SchedulerOptions {
  store: ObjectStore;
  clock: Clock;
  recorder: EventRecorder;
  /** Message wording of a Kubernetes minor version; the simulated server says v1.34.0. */
  wording?: SchedulerWording;
  /** How often an unschedulable pod is tried again without any change (simulated ms). */
  retryIntervalMs?: number;
  /** How long PreBind waits for WaitForFirstConsumer claims to bind (kube-scheduler: 600 s). */
  bindTimeoutMs?: number;
}

interface PodClaims {
  bound: StoredObject[];
  /** Unbound claims of WaitForFirstConsumer classes. */
  delayed: StoredObject[];
}

interface Tracked {
  node: string;
  requests: Requests;
}

const scale = (requests: Requests, sign: number): Requests => ({
  milliCpu: sign * requests.milliCpu,
  memory: sign * requests.memory,
  nonZeroMilliCpu: sign * requests.nonZeroMilliCpu,
  nonZeroMemory: sign * requests.nonZeroMemory,
});

/** Pods by key with the node they take room on, and the totals per node kept as they change. */
class UsageIndex {
  private readonly entries = new Map<string, Tracked>();
  private readonly totals = new Map<string, NodeUsage>();

  has(key: string): boolean {
    return this.entries.has(key);
  }

  nodeOf(key: string): string | undefined {
    return this.entries.get(key)?.node;
  }

  set(key: string, tracked: Tracked | undefined): void {
    const before = this.entries.get(key);
    if (before) this.adjust(before, -1);
    if (tracked) {
      this.entries.set(key, tracked);
      this.adjust(tracked, 1);
    } else this.entries.delete(key);
  }

  delete(key: string): void {
    this.set(key, undefined);
  }

  /** What the node's pods request, leaving out the pod being scheduled. */
  usage(node: string, except: string): NodeUsage {
    const total = this.totals.get(node) ?? { requests: ZERO, pods: 0 };
    const own = this.entries.get(except);
    if (own?.node !== node) return total;
    return { requests: add(total.requests, scale(own.requests, -1)), pods: total.pods - 1 };
  }

  private adjust(tracked: Tracked, sign: number): void {
    const total = this.totals.get(tracked.node) ?? { requests: ZERO, pods: 0 };
    this.totals.set(tracked.node, { requests: add(total.requests, scale(tracked.requests, sign)), pods: total.pods + sign });
  }
}

export class Scheduler implements Reconciler {
  readonly name = SCHEDULER_NAME;
  private readonly store: ObjectStore;
  private readonly clock: Clock;
  private readonly recorder: EventRecorder;
  private readonly wording: SchedulerWording;
  private readonly retryIntervalMs: number;
  private readonly bindTimeoutMs: number;
  /** Pods this scheduler should place: no node, not being deleted, ours. */
  private readonly pending = new Set<string>();
  /** Pending pods by the claims they mount, so that a claim's change wakes only its pods. */
  private readonly pendingByClaim = new Map<string, Set<string>>();
  private readonly claimsOfPending = new Map<string, string[]>();
  /** Assigned, non-terminal pods and what they request: the NodeInfo cache. */
  private readonly assigned = new UsageIndex();
  /** Pods chosen a node for but waiting for their claims to bind (the assume cache). */
  private readonly assumed = new UsageIndex();
  /** Since when each assumed pod (by key, for its uid) has waited in PreBind. */
  private readonly waiting = new Map<string, { uid: string; since: number }>();
  private indexed = false;

  constructor(options: SchedulerOptions) {
    this.store = options.store;
    this.clock = options.clock;
    this.recorder = options.recorder;
    this.wording = options.wording ?? SCHEDULER_WORDING["1.34"];
    this.retryIntervalMs = options.retryIntervalMs ?? 60_000;
    this.bindTimeoutMs = options.bindTimeoutMs ?? 600_000;
  }

  initialKeys(): string[] {
    this.buildIndex();
    return [...this.pending];
  }

  keysFor(event: StoreEvent): string[] {
    this.buildIndex();
    switch (event.resource) {
      case "pods": {
        const freed = this.observePod(event);
        const key = keyOf(event.object);
        // A pod leaving a node frees room for the ones waiting.
        if (freed) return [...this.pending];
        // Like the scheduling queue, ignore updates of status alone (our own conditions among them).
        return this.pending.has(key) && changedForScheduling(event) ? [key] : [];
      }
      case "nodes":
        return [...this.pending];
      // As kube-scheduler's queueing hints do: a claim or its volume concerns only the pods that
      // mount the claim; a class or a volume nobody has claimed concerns every pod with claims.
      case "persistentvolumeclaims":
        return [...(this.pendingByClaim.get(keyOf(event.object)) ?? [])];
      case "persistentvolumes": {
        const ref = record(record(event.object.spec).claimRef);
        if (typeof ref.name === "string" && ref.uid) return [...(this.pendingByClaim.get(`${String(ref.namespace)}/${ref.name}`) ?? [])];
        return [...this.claimsOfPending.keys()];
      }
      case "storage.k8s.io/storageclasses":
        return [...this.claimsOfPending.keys()];
      default:
        return [];
    }
  }

  reconcile(key: string): ReconcileResult | void {
    this.buildIndex();
    const { namespace, name } = splitKey(key);
    const pod = this.store.peek(refs.pods, namespace, name);
    if (!pod || !this.isOurs(pod)) {
      this.forget(key, pod);
      return;
    }
    const nodes = this.store.list(refs.nodes);
    if (nodes.length === 0) return this.fail(pod, "Unschedulable", NO_NODES);

    const claims = this.preFilter(pod);
    if (typeof claims === "string") {
      this.assumed.delete(key);
      const statuses = nodes.map((): NodeStatus => ({ code: "UnschedulableAndUnresolvable", reasons: [claims] }));
      return this.fail(pod, "Unschedulable", fitErrorMessage(nodes.length, { preFilterMessage: claims, statuses }, this.postFilter(pod, statuses)));
    }

    const requests = podRequests(pod);
    // A pod already assumed onto a node is in its binding cycle: like PreBind, it only waits for
    // its claims and is not filtered again (a cordon now does not take the node away from it).
    const assumedNode = this.assumed.nodeOf(key);
    const assumedOnto = assumedNode !== undefined ? nodes.find((node) => node.metadata.name === assumedNode) : undefined;
    if (assumedOnto && claims.delayed.every((claim) => claim.metadata.annotations?.[SELECTED_NODE_ANNOTATION] === assumedNode)) {
      return this.assumeAndBind(pod, assumedOnto, claims, requests);
    }
    const statuses = new Map<string, NodeStatus>();
    const feasible: StoredObject[] = [];
    for (const node of nodes) {
      const status = this.filter(pod, requests, node, claims, key);
      if (status) statuses.set(node.metadata.name, status);
      else feasible.push(node);
    }
    if (feasible.length === 0) {
      const all = [...statuses.values()];
      this.assumed.delete(key);
      return this.fail(pod, "Unschedulable", fitErrorMessage(nodes.length, { statuses: all }, this.postFilter(pod, all)));
    }

    const chosen = this.choose(feasible, claims, requests, key);
    return this.assumeAndBind(pod, chosen, claims, requests);
  }

  private isOurs(pod: StoredObject): boolean {
    const spec = record(pod.spec);
    if (nodeNameOf(pod) || pod.metadata.deletionTimestamp) return false;
    if ((spec.schedulerName ?? SCHEDULER_NAME) !== SCHEDULER_NAME) return false;
    // A pod with scheduling gates waits in PreEnqueue until they are removed.
    if (list(spec.schedulingGates).length > 0) return false;
    const phase = podPhase(pod);
    return phase !== "Succeeded" && phase !== "Failed";
  }

  // ---- the pod index (what the scheduler's informers and cache hold) ----

  private buildIndex(): void {
    if (this.indexed) return;
    this.indexed = true;
    for (const pod of this.store.list(refs.pods)) this.track(keyOf(pod), pod);
  }

  /** Keeps pending/assigned current; returns whether a pod stopped taking room on a node. */
  private observePod(event: StoreEvent): boolean {
    const key = keyOf(event.object);
    const before = this.assigned.has(key);
    if (event.type === "DELETED") {
      this.setPending(key, undefined);
      this.assigned.delete(key);
      this.assumed.delete(key);
      return before;
    }
    this.track(key, event.object);
    return before && !this.assigned.has(key);
  }

  private track(key: string, pod: StoredObject): void {
    const node = nodeNameOf(pod);
    const phase = podPhase(pod);
    const terminal = phase === "Succeeded" || phase === "Failed";
    if (node && !terminal) {
      this.assigned.set(key, { node, requests: podRequests(pod) });
      this.assumed.delete(key);
    } else this.assigned.delete(key);
    if (this.isOurs(pod)) this.setPending(key, pod);
    else {
      this.setPending(key, undefined);
      if (node || terminal) this.assumed.delete(key);
    }
  }

  /** Adds a pod to the pending set with the claims it mounts, or takes it out. */
  private setPending(key: string, pod: StoredObject | undefined): void {
    for (const claimKey of this.claimsOfPending.get(key) ?? []) {
      const pods = this.pendingByClaim.get(claimKey);
      pods?.delete(key);
      if (pods?.size === 0) this.pendingByClaim.delete(claimKey);
    }
    this.claimsOfPending.delete(key);
    if (!pod) {
      this.pending.delete(key);
      return;
    }
    this.pending.add(key);
    const claimKeys = podClaimNames(pod).map(({ name }) => `${pod.metadata.namespace}/${name}`);
    if (claimKeys.length === 0) return;
    this.claimsOfPending.set(key, claimKeys);
    for (const claimKey of claimKeys) {
      let pods = this.pendingByClaim.get(claimKey);
      if (!pods) this.pendingByClaim.set(claimKey, (pods = new Set()));
      pods.add(key);
    }
  }

  private forget(key: string, pod: StoredObject | undefined): void {
    this.setPending(key, undefined);
    this.waiting.delete(key);
    if (!pod || nodeNameOf(pod)) this.assumed.delete(key);
  }

  private usageOf(nodeName: string, except: string): NodeUsage {
    const assigned = this.assigned.usage(nodeName, except);
    const assumed = this.assumed.usage(nodeName, except);
    return { requests: add(assigned.requests, assumed.requests), pods: assigned.pods + assumed.pods };
  }

  // ---- PreFilter and Filter ----

  /** VolumeBinding's PreFilter: the pod's claims, or the message it rejects the pod with. */
  private preFilter(pod: StoredObject): PodClaims | string {
    const claims: PodClaims = { bound: [], delayed: [] };
    let unboundImmediate = false;
    for (const { name, ephemeral } of podClaimNames(pod)) {
      const claim = this.store.peek(refs.claims, pod.metadata.namespace, name);
      // The lister's NotFound names the resource in the singular.
      if (!claim) return ephemeral ? `waiting for ephemeral volume controller to create the persistentvolumeclaim "${name}"` : `persistentvolumeclaim "${name}" not found`;
      const volumeName = record(claim.spec).volumeName;
      if (record(claim.status).phase === "Lost") return `persistentvolumeclaim "${name}" bound to non-existent persistentvolume "${String(volumeName ?? "")}"`;
      if (claim.metadata.deletionTimestamp) return `persistentvolumeclaim "${name}" is being deleted`;
      if (typeof volumeName === "string" && volumeName && claim.metadata.annotations?.[BIND_COMPLETED_ANNOTATION] !== undefined) {
        claims.bound.push(claim);
        continue;
      }
      // IsDelayBindingMode: no class, or a class that does not exist, binds immediately.
      const className = claimClassName(claim);
      const storageClass = className ? this.store.peek(refs.storageClasses, undefined, className) : undefined;
      if (storageClass?.volumeBindingMode === "WaitForFirstConsumer" && !volumeName) claims.delayed.push(claim);
      else unboundImmediate = true;
    }
    if (unboundImmediate) return REASON_UNBOUND_IMMEDIATE;
    return claims;
  }

  /** The default Filter plugins in order; the first failure is the node's status. */
  private filter(pod: StoredObject, requests: Requests, node: StoredObject, claims: PodClaims, key: string): NodeStatus | null {
    const tolerations = tolerationsOf(pod);
    if (record(node.spec).unschedulable === true && !tolerates(tolerations, UNSCHEDULABLE_TAINT)) {
      return { code: "UnschedulableAndUnresolvable", reasons: [REASON_UNSCHEDULABLE] };
    }
    const taint = findUntoleratedTaint(taintsOf(node), tolerations);
    if (taint) return { code: "UnschedulableAndUnresolvable", reasons: [this.wording.untoleratedTaint(taint)] };
    if (!podMatchesNode(pod, node)) return { code: "UnschedulableAndUnresolvable", reasons: [REASON_NODE_AFFINITY] };
    const fit = fitsResources(requests, this.usageOf(node.metadata.name, key), allocatableOf(node));
    if (fit) return fit;
    return this.volumeBinding(node, claims);
  }

  /** VolumeBinding's Filter (FindPodVolumes), with its reasons in the order it appends them. */
  private volumeBinding(node: StoredObject, claims: PodClaims): NodeStatus | null {
    let boundSatisfied = true;
    let boundFound = true;
    let unboundSatisfied = true;
    for (const claim of claims.bound) {
      const volume = this.store.peek(refs.volumes, undefined, String(record(claim.spec).volumeName));
      if (!volume) boundFound = false;
      else if (!volumeMatchesNode(volume, node)) boundSatisfied = false;
    }
    for (const claim of claims.delayed) {
      const selected = claim.metadata.annotations?.[SELECTED_NODE_ANNOTATION];
      if (selected !== undefined && selected !== node.metadata.name) {
        unboundSatisfied = false;
        break;
      }
      if (!this.canProvision(claim, node)) unboundSatisfied = false;
    }
    const reasons: string[] = [];
    if (!boundSatisfied) reasons.push(this.wording.volumeNodeConflict);
    if (!unboundSatisfied) reasons.push(REASON_BIND_CONFLICT);
    if (!boundFound) reasons.push(REASON_PV_NOT_EXIST);
    return reasons.length ? { code: "UnschedulableAndUnresolvable", reasons } : null;
  }

  /** checkVolumeProvisions: the class can provision here (static PVs of such classes are not matched). */
  private canProvision(claim: StoredObject, node: StoredObject): boolean {
    const storageClass = this.store.peek(refs.storageClasses, undefined, claimClassName(claim));
    if (!storageClass || storageClass.provisioner === "kubernetes.io/no-provisioner") return false;
    const topologies = list(storageClass.allowedTopologies);
    if (topologies.length === 0) return true;
    const labels = node.metadata.labels ?? {};
    return topologies.some((term) =>
      list<{ key: string; values?: string[] }>(term.matchLabelExpressions).every((expression) => (expression.values ?? []).includes(labels[expression.key] ?? "\u0000")),
    );
  }

  private postFilter(pod: StoredObject, statuses: NodeStatus[]): string {
    return this.wording.postFilterPrefix + preemptionMessage(pod, statuses);
  }

  // ---- choosing, assuming, binding ----

  /**
   * The node a WaitForFirstConsumer claim was already given, if it is still feasible; otherwise
   * the least allocated node (LeastAllocated over non-zero requests), then fewer pods, then name.
   */
  private choose(feasible: StoredObject[], claims: PodClaims, requests: Requests, key: string): StoredObject {
    const selected = claims.delayed.map((claim) => claim.metadata.annotations?.[SELECTED_NODE_ANNOTATION]).find((name) => name !== undefined);
    const preferred = selected ? feasible.find((node) => node.metadata.name === selected) : undefined;
    if (preferred) return preferred;
    const scored = feasible.map((node) => {
      const usage = this.usageOf(node.metadata.name, key);
      const allocatable = allocatableOf(node);
      const fraction = (used: number, capacity: number) => (Number.isFinite(capacity) && capacity > 0 ? used / capacity : 0);
      const load = (fraction(usage.requests.nonZeroMilliCpu + requests.nonZeroMilliCpu, allocatable.milliCpu) + fraction(usage.requests.nonZeroMemory + requests.nonZeroMemory, allocatable.memory)) / 2;
      return { node, load, pods: usage.pods };
    });
    scored.sort((a, b) => a.load - b.load || a.pods - b.pods || (a.node.metadata.name < b.node.metadata.name ? -1 : 1));
    return scored[0]!.node;
  }

  private assumeAndBind(pod: StoredObject, node: StoredObject, claims: PodClaims, requests: Requests): ReconcileResult | void {
    const key = keyOf(pod);
    const nodeName = node.metadata.name;
    if (claims.delayed.length === 0) {
      this.waiting.delete(key);
      this.assumed.delete(key);
      // Through the binding subresource, as kube-scheduler's DefaultBinder does.
      const { namespace, name } = pod.metadata;
      bindPod({ store: this.store, clock: this.clock }, namespace!, name, bindingBody(namespace!, name, nodeName));
      this.recorder.record(this.store.peek(refs.pods, namespace, name) ?? pod, "Normal", "Scheduled", `Successfully assigned ${namespace}/${name} to ${nodeName}`, SCHEDULER_NAME);
      return;
    }
    // PreBind: hand the claims to the provisioner for this node, then wait for them to bind.
    this.assumed.set(key, { node: nodeName, requests });
    for (const claim of claims.delayed) {
      if (claim.metadata.annotations?.[SELECTED_NODE_ANNOTATION] === nodeName) continue;
      const next = clone(claim);
      next.metadata.annotations = { ...next.metadata.annotations, [SELECTED_NODE_ANNOTATION]: nodeName };
      this.store.update(refs.claims, next);
    }
    const now = this.clock.now().getTime();
    const waited = this.waiting.get(key);
    const since = waited?.uid === pod.metadata.uid ? waited.since : now;
    this.waiting.set(key, { uid: pod.metadata.uid, since });
    if (now - since >= this.bindTimeoutMs) {
      this.waiting.delete(key);
      this.assumed.delete(key);
      this.fail(pod, "SchedulerError", `running PreBind plugin "VolumeBinding": binding volumes: context deadline exceeded`);
      return { requeueAfterMs: 1_000 };
    }
    // A claim binding re-queues the pod; the timeout is the only reason to look again unasked.
    return { requeueAfterMs: since + this.bindTimeoutMs - now };
  }

  private fail(pod: StoredObject, reason: "Unschedulable" | "SchedulerError", message: string): ReconcileResult {
    const next = clone(pod);
    if (setCondition(next, { type: "PodScheduled", status: "False", reason, message, lastProbeTime: null }, timestamp(this.clock.now()))) {
      this.store.update(refs.pods, next);
    }
    this.recorder.record(pod, "Warning", "FailedScheduling", message, SCHEDULER_NAME);
    return { requeueAfterMs: this.retryIntervalMs };
  }
}
