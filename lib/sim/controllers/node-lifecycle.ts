import type { Clock } from "../clock.ts";
import { findCondition, keyOf, list, nodeNameOf, record, refs, setCondition, spec, splitKey, timestamp } from "../k8s-objects.ts";
import { clone, type StoredObject } from "../objects.ts";
import { StatusError } from "../status-error.ts";
import type { ObjectStore, StoreEvent } from "../store/object-store.ts";
import type { EventRecorder } from "./event-recorder.ts";
import { toleratesTaint, type Taint, type Toleration } from "./node-affinity.ts";
import type { Reconciler, ReconcileResult } from "./reconciler.ts";

// Node liveness as the node lifecycle controller sees it: kubelets renew a Lease in
// kube-node-lease every 10 s; a node whose lease is older than the grace period (40 s) goes
// Ready=Unknown and gets the unreachable taints; when its kubelet is back, the taints go.

export const NODE_LEASE_NAMESPACE = "kube-node-lease";
export const UNREACHABLE_TAINT = "node.kubernetes.io/unreachable";
export const UNSCHEDULABLE_TAINT = "node.kubernetes.io/unschedulable";
const LEASE_RENEW_MS = 10_000;
const NODE_MONITOR_GRACE_MS = 40_000;
const NODE_MONITOR_PERIOD_MS = 5_000;

// The kubelet's own words for a healthy node.
const PRESSURE_CONDITIONS = [
  ["MemoryPressure", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"],
  ["DiskPressure", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"],
  ["PIDPressure", "KubeletHasSufficientPID", "kubelet has sufficient PID available"],
] as const;

export class NodeHeartbeats {
  private cancel: () => void = () => {};

  constructor(
    private readonly store: ObjectStore,
    private readonly clock: Clock,
    private readonly nodeIsUp: (name: string) => boolean,
  ) {}

  start(): void {
    const beat = () => {
      try {
        this.beat();
      } catch (error) {
        console.error("simulated cluster: a node heartbeat failed", error);
      } finally {
        this.cancel = this.clock.after(LEASE_RENEW_MS, beat);
      }
    };
    beat();
  }

  stop(): void {
    this.cancel();
  }

  /** Renews the lease of every node whose kubelet is running and reports it Ready. */
  beat(): void {
    const now = this.clock.now();
    for (const node of this.store.list(refs.nodes)) {
      const name = node.metadata.name;
      if (!this.nodeIsUp(name)) continue;
      const renewTime = now.toISOString().replace("Z", "000Z");
      const lease = this.store.peek(refs.leases, NODE_LEASE_NAMESPACE, name);
      if (lease) this.store.update(refs.leases, { ...lease, spec: { ...record(lease.spec), renewTime } });
      else {
        this.store.create(refs.leases, {
          apiVersion: "coordination.k8s.io/v1",
          kind: "Lease",
          metadata: { name, namespace: NODE_LEASE_NAMESPACE, ownerReferences: [{ apiVersion: "v1", kind: "Node", name, uid: node.metadata.uid }] },
          spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime },
        });
      }
      if (findCondition(node, "Ready")?.status !== "True") {
        const next = clone(node);
        const stamp = timestamp(now);
        setCondition(next, { type: "Ready", status: "True", reason: "KubeletReady", message: "kubelet is posting ready status", lastHeartbeatTime: stamp }, stamp);
        for (const [type, reason, message] of PRESSURE_CONDITIONS) {
          setCondition(next, { type, status: "False", reason, message, lastHeartbeatTime: stamp }, stamp);
        }
        this.store.update(refs.nodes, next);
      }
    }
  }
}

export class NodeLifecycleController implements Reconciler {
  readonly name = "node-lifecycle";

  constructor(
    private readonly store: ObjectStore,
    private readonly clock: Clock,
    private readonly recorder: EventRecorder,
  ) {}

  initialKeys(): string[] {
    return this.store.list(refs.nodes).map(keyOf);
  }

  keysFor(event: StoreEvent): string[] {
    if (event.resource === "nodes") return [keyOf(event.object)];
    if (event.resource === "coordination.k8s.io/leases" && event.object.metadata.namespace === NODE_LEASE_NAMESPACE) return [event.object.metadata.name];
    return [];
  }

  reconcile(key: string): ReconcileResult | void {
    const node = this.store.peek(refs.nodes, undefined, splitKey(key).name);
    if (!node) return;
    const lease = this.store.peek(refs.leases, NODE_LEASE_NAMESPACE, node.metadata.name);
    const renewed = Date.parse(String(record(lease?.spec).renewTime ?? node.metadata.creationTimestamp));
    const now = this.clock.now();
    const stale = now.getTime() - renewed > NODE_MONITOR_GRACE_MS;
    const ready = findCondition(node, "Ready");
    const tainted = list(spec(clone(node)).taints).some((taint) => taint.key === UNREACHABLE_TAINT);
    if (stale && ready?.status !== "Unknown") this.markUnreachable(node);
    else if (!stale && ready?.status === "True" && tainted) this.markReachable(node);
    else this.taintByUnschedulable(node);
    return { requeueAfterMs: NODE_MONITOR_PERIOD_MS };
  }

  /** TaintNodesByCondition: a cordoned node carries the unschedulable NoSchedule taint. */
  private taintByUnschedulable(node: StoredObject): void {
    const unschedulable = record(node.spec).unschedulable === true;
    const taints = list(record(node.spec).taints);
    const has = taints.some((taint) => taint.key === UNSCHEDULABLE_TAINT);
    if (unschedulable === has) return;
    const next = clone(node);
    const kept = taints.filter((taint) => taint.key !== UNSCHEDULABLE_TAINT);
    if (unschedulable) kept.push({ key: UNSCHEDULABLE_TAINT, effect: "NoSchedule", timeAdded: timestamp(this.clock.now()) });
    if (kept.length > 0) spec(next).taints = kept;
    else delete spec(next).taints;
    this.store.update(refs.nodes, next);
  }

  private markUnreachable(node: StoredObject): void {
    const next = clone(node);
    const stamp = timestamp(this.clock.now());
    for (const condition of list(record(next.status).conditions)) {
      setCondition(next, { type: String(condition.type), status: "Unknown", reason: "NodeStatusUnknown", message: "Kubelet stopped posting node status.", lastHeartbeatTime: condition.lastHeartbeatTime as string | undefined }, stamp);
    }
    const taints = list(spec(next).taints).filter((taint) => taint.key !== UNREACHABLE_TAINT);
    taints.push({ key: UNREACHABLE_TAINT, effect: "NoSchedule", timeAdded: stamp }, { key: UNREACHABLE_TAINT, effect: "NoExecute", timeAdded: stamp });
    spec(next).taints = taints;
    const updated = this.store.update(refs.nodes, next);
    this.recorder.record(updated, "Normal", "NodeNotReady", `Node ${node.metadata.name} status is now: NodeNotReady`, "node-controller");
    // The controller marks the node's pods not ready: nobody can vouch for them.
    for (const pod of this.store.list(refs.pods).filter((one) => nodeNameOf(one) === node.metadata.name)) {
      const changed = clone(pod);
      if (setCondition(changed, { type: "Ready", status: "False" }, stamp)) {
        try {
          this.store.update(refs.pods, changed);
        } catch (error) {
          if (!(error instanceof StatusError)) throw error;
        }
      }
    }
  }

  private markReachable(node: StoredObject): void {
    const next = clone(node);
    spec(next).taints = list(spec(next).taints).filter((taint) => taint.key !== UNREACHABLE_TAINT);
    if (list(spec(next).taints).length === 0) delete spec(next).taints;
    const updated = this.store.update(refs.nodes, next);
    this.recorder.record(updated, "Normal", "NodeReady", `Node ${node.metadata.name} status is now: NodeReady`, "node-controller");
  }
}

/** The taint-eviction controller: pods on a node with NoExecute taints they do not tolerate go. */
export class TaintEvictionController implements Reconciler {
  readonly name = "taint-eviction";

  constructor(
    private readonly store: ObjectStore,
    private readonly clock: Clock,
    private readonly recorder: EventRecorder,
    private readonly gracePeriodOf: (pod: StoredObject) => number,
  ) {}

  keysFor(event: StoreEvent): string[] {
    if (event.resource === "pods") return nodeNameOf(event.object) ? [keyOf(event.object)] : [];
    if (event.resource === "nodes") return this.store.list(refs.pods).filter((pod) => nodeNameOf(pod) === event.object.metadata.name).map(keyOf);
    return [];
  }

  reconcile(key: string): ReconcileResult | void {
    const { namespace, name } = splitKey(key);
    const pod = this.store.peek(refs.pods, namespace, name);
    if (!pod || pod.metadata.deletionTimestamp) return;
    const node = this.store.peek(refs.nodes, undefined, nodeNameOf(pod) ?? "");
    if (!node) return;
    const now = this.clock.now().getTime();
    let evictAt = Number.POSITIVE_INFINITY;
    for (const taint of list<Taint>(record(node.spec).taints).filter((one) => one.effect === "NoExecute")) {
      const toleration = list<Toleration>(record(pod.spec).tolerations).find((one) => toleratesTaint(one, taint));
      if (!toleration) evictAt = Math.min(evictAt, now);
      else if (typeof toleration.tolerationSeconds === "number") {
        const added = Date.parse(String(taint.timeAdded ?? node.metadata.creationTimestamp));
        evictAt = Math.min(evictAt, added + toleration.tolerationSeconds * 1000);
      }
    }
    if (!Number.isFinite(evictAt)) return;
    if (evictAt > now) return { requeueAfterMs: evictAt - now };
    const next = clone(pod);
    setCondition(next, { type: "DisruptionTarget", status: "True", reason: "DeletionByTaintManager", message: "Taint manager: deleting due to NoExecute taint" }, timestamp(this.clock.now()));
    const updated = this.store.update(refs.pods, next);
    this.recorder.record(updated, "Normal", "TaintManagerEviction", `Marking for deletion Pod ${namespace}/${name}`, "taint-eviction-controller");
    this.store.delete(refs.pods, namespace, name, { gracePeriodSeconds: this.gracePeriodOf(updated) });
  }
}
