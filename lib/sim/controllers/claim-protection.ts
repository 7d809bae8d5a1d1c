import { keyOf, podPhase, refs, splitKey } from "../k8s-objects.ts";
import { clone, type KubeObject, type StoredObject } from "../objects.ts";
import type { ObjectStore, StoreEvent } from "../store/object-store.ts";
import type { Reconciler, ReconcileResult } from "./reconciler.ts";
import { podClaimNames } from "./scheduler.ts";

// The pvc-protection controller (and the StorageObjectInUseProtection admission plugin's half of
// it): every claim carries the kubernetes.io/pvc-protection finalizer, and a claim being deleted
// keeps it while a scheduled pod that has not finished still mounts the claim, so that a running
// workload never loses its volume underneath it.

export const CLAIM_PROTECTION_FINALIZER = "kubernetes.io/pvc-protection";

/** What the admission plugin does to a claim on create. Returns whether it changed it. */
export function addClaimProtection(claim: KubeObject): boolean {
  const finalizers = claim.metadata.finalizers ?? [];
  if (finalizers.includes(CLAIM_PROTECTION_FINALIZER)) return false;
  claim.metadata.finalizers = [...finalizers, CLAIM_PROTECTION_FINALIZER];
  return true;
}

/**
 * podUsesPVC: only a scheduled pod counts (a kubelet will not start a pod whose claim is being
 * deleted), and a pod that has finished no longer uses anything.
 */
export function podUsesClaim(pod: KubeObject, claimName: string): boolean {
  if (!(pod.spec as { nodeName?: string } | undefined)?.nodeName) return false;
  const phase = podPhase(pod);
  if (phase === "Succeeded" || phase === "Failed") return false;
  return podClaimNames(pod).some(({ name }) => name === claimName);
}

export class ClaimProtectionController implements Reconciler {
  readonly name = "pvc-protection-controller";
  /** Which pods use each claim (by claim key), kept from pod events: the controller's pod index. */
  private readonly users = new Map<string, Set<string>>();
  private readonly uses = new Map<string, string[]>();
  private indexed = false;

  constructor(private readonly store: ObjectStore) {}

  initialKeys(): string[] {
    this.buildIndex();
    return this.store.list(refs.claims).map(keyOf);
  }

  keysFor(event: StoreEvent): string[] {
    this.buildIndex();
    if (event.resource === "persistentvolumeclaims") return event.type === "DELETED" ? [] : [keyOf(event.object)];
    if (event.resource !== "pods") return [];
    // A pod that stops using its claims (gone, finished) may release the ones being deleted.
    const released = this.track(event.object, event.type === "DELETED");
    return released.filter((key) => {
      const { namespace, name } = splitKey(key);
      return this.store.peek(refs.claims, namespace, name)?.metadata.deletionTimestamp !== undefined;
    });
  }

  private buildIndex(): void {
    if (this.indexed) return;
    this.indexed = true;
    for (const pod of this.store.list(refs.pods)) this.track(pod, false);
  }

  /** Records which claims a pod uses now; returns the claims it used before or uses now. */
  private track(pod: StoredObject, deleted: boolean): string[] {
    const podKey = keyOf(pod);
    const before = this.uses.get(podKey) ?? [];
    for (const claimKey of before) this.users.get(claimKey)?.delete(podKey);
    const now = deleted ? [] : podClaimNames(pod).filter(({ name }) => podUsesClaim(pod, name)).map(({ name }) => `${pod.metadata.namespace}/${name}`);
    if (now.length > 0) this.uses.set(podKey, now);
    else this.uses.delete(podKey);
    for (const claimKey of now) {
      let set = this.users.get(claimKey);
      if (!set) this.users.set(claimKey, (set = new Set()));
      set.add(podKey);
    }
    return [...new Set([...before, ...now])];
  }

  reconcile(key: string): ReconcileResult | void {
    const { namespace, name } = splitKey(key);
    const claim = this.store.peek(refs.claims, namespace, name);
    if (!claim) return;
    const finalizers = claim.metadata.finalizers ?? [];
    if (!claim.metadata.deletionTimestamp) {
      const next = clone(claim);
      if (addClaimProtection(next)) this.store.update(refs.claims, next);
      return;
    }
    if (!finalizers.includes(CLAIM_PROTECTION_FINALIZER) || this.inUse(claim)) return;
    const next = clone(claim);
    next.metadata.finalizers = finalizers.filter((finalizer) => finalizer !== CLAIM_PROTECTION_FINALIZER);
    this.store.update(refs.claims, next);
  }

  private inUse(claim: StoredObject): boolean {
    this.buildIndex();
    return (this.users.get(keyOf(claim))?.size ?? 0) > 0;
  }
}
