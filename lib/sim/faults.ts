import type { Clock } from "./clock.ts";
import { nodeNameOf, record, refs, setCondition, timestamp } from "./k8s-objects.ts";
import { clone, type StoredObject } from "./objects.ts";
import { StatusError, Throttled } from "./status-error.ts";
import type { ObjectStore } from "./store/object-store.ts";
import type { RequestInfo } from "./api/api-server.ts";
import type { EventRecorder } from "./controllers/event-recorder.ts";
import { drainNode, type DrainOptions, type DrainReport } from "./drain.ts";

// What tests, demos and benchmarks do to the simulated cluster: the things a platform team
// or bad luck does to a real one. Node operations follow kubectl's semantics; API faults and
// dropped watches hit every client alike.

export interface ApiFault {
  verb?: string;
  resource?: string;
  namespace?: string;
  name?: string;
  /** HTTP status to fail with (e.g. 500, 429, 503); omit for latency only. */
  code?: number;
  message?: string;
  latencyMs?: number;
  /** With code 429: the API server's own throttle — plain text and this Retry-After, as its in-flight limit and Priority and Fairness answer. */
  retryAfterSeconds?: number;
  /** How many matching requests it applies to; unlimited when omitted. */
  count?: number;
}

export interface FaultDeps {
  store: ObjectStore;
  clock: Clock;
  recorder: EventRecorder;
  evict: (namespace: string, name: string, body: string) => unknown;
  kubeletEvict: (namespace: string, name: string, resource: string) => StoredObject;
  failProvisioning: (storageClass: string, message: string | null) => void;
  dropWatches: () => number;
  gracePeriodOf: (pod: StoredObject) => number;
}

const REASON_OF_CODE: Record<number, string> = { 400: "BadRequest", 403: "Forbidden", 404: "NotFound", 409: "Conflict", 429: "TooManyRequests", 500: "InternalError", 503: "ServiceUnavailable", 504: "Timeout" };

export class Faults {
  readonly nodesDown = new Set<string>();
  private apiFaults: ApiFault[] = [];

  constructor(private readonly deps: FaultDeps) {}

  nodeIsUp = (name: string): boolean => !this.nodesDown.has(name);

  // ---- nodes ----

  setUnschedulable(name: string, unschedulable: boolean): StoredObject {
    const node = this.deps.store.get(refs.nodes, undefined, name);
    const next = clone(node);
    const spec = record(next.spec);
    if (unschedulable) spec.unschedulable = true;
    else delete spec.unschedulable;
    next.spec = spec;
    const updated = this.deps.store.update(refs.nodes, next);
    this.deps.recorder.record(updated, "Normal", unschedulable ? "NodeNotSchedulable" : "NodeSchedulable", `Node ${name} status is now: ${unschedulable ? "NodeNotSchedulable" : "NodeSchedulable"}`, "kubelet", name);
    return updated;
  }

  /** kubectl drain (see drain.ts): answers once the node is empty, or has given up. */
  drain(name: string, options: DrainOptions = {}): Promise<DrainReport> {
    return drainNode({ store: this.deps.store, clock: this.deps.clock, cordon: (node) => this.setUnschedulable(node, true), evict: this.deps.evict }, name, options);
  }

  /** The node's kubelet stops: no heartbeats, nothing on it changes until it is restored. */
  loseNode(name: string): void {
    this.deps.store.get(refs.nodes, undefined, name);
    this.nodesDown.add(name);
  }

  restoreNode(name: string): void {
    this.deps.store.get(refs.nodes, undefined, name);
    this.nodesDown.delete(name);
  }

  // ---- pods ----

  kubeletEvict(namespace: string, name: string, resource = "memory"): StoredObject {
    return this.deps.kubeletEvict(namespace, name, resource);
  }

  /** The scheduler preempts the pod for a higher-priority one. */
  preempt(namespace: string, name: string, preemptor = "high-priority-pod"): StoredObject {
    const pod = this.deps.store.get(refs.pods, namespace, name);
    const next = clone(pod);
    setCondition(next, { type: "DisruptionTarget", status: "True", reason: "PreemptionByScheduler", message: `${namespace}/${preemptor}: preempting to accommodate a higher priority pod` }, timestamp(this.deps.clock.now()));
    const updated = this.deps.store.update(refs.pods, next);
    this.deps.recorder.record(updated, "Normal", "Preempted", `Preempted by pod ${preemptor} on node ${nodeNameOf(pod) ?? ""}`, "default-scheduler");
    return this.deps.store.delete(refs.pods, namespace, name, { gracePeriodSeconds: this.deps.gracePeriodOf(updated) }).object;
  }

  deletePod(namespace: string, name: string, force = false): StoredObject {
    const pod = this.deps.store.get(refs.pods, namespace, name);
    return this.deps.store.delete(refs.pods, namespace, name, { gracePeriodSeconds: force ? 0 : this.deps.gracePeriodOf(pod) }).object;
  }

  // ---- storage ----

  failProvisioning(storageClass: string, message: string | null): void {
    this.deps.failProvisioning(storageClass, message);
  }

  // ---- the API ----

  injectApiFault(fault: ApiFault): void {
    this.apiFaults.push({ ...fault });
  }

  clearApiFaults(): void {
    this.apiFaults = [];
  }

  dropWatches(): number {
    return this.deps.dropWatches();
  }

  compact(): void {
    this.deps.store.compact();
  }

  /** The API server's request gate: applies the first matching injected fault. */
  gate = async (info: RequestInfo): Promise<void> => {
    const fault = this.apiFaults.find(
      (one) =>
        (one.verb === undefined || one.verb === info.verb) &&
        (one.resource === undefined || one.resource === info.path.resource) &&
        (one.namespace === undefined || one.namespace === info.path.namespace) &&
        (one.name === undefined || one.name === info.path.name),
    );
    if (!fault) return;
    if (fault.count !== undefined) {
      fault.count--;
      if (fault.count <= 0) this.apiFaults = this.apiFaults.filter((one) => one !== fault);
    }
    if (fault.latencyMs) await new Promise((resolve) => setTimeout(resolve, fault.latencyMs));
    if (fault.code === 429 && fault.retryAfterSeconds !== undefined) throw new Throttled(fault.retryAfterSeconds);
    if (fault.code) {
      throw StatusError.of(fault.code, REASON_OF_CODE[fault.code] ?? "InternalError", fault.message ?? `injected fault: ${info.verb} ${info.path.resource}`);
    }
  };
}
