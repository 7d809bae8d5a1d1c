import { resourceFor } from "../api/resources.ts";
import { strategyFor } from "../api/strategies.ts";
import { clone, type OwnerReference, type StoredObject } from "../objects.ts";
import { StatusError } from "../status-error.ts";
import type { ObjectStore, StoreEvent } from "../store/object-store.ts";
import type { EventRecorder } from "./event-recorder.ts";
import { objectKey, OwnerIndex, ownerKeyOf, parseObjectKey, resourceOfOwner, type ObjectAddress, type ObjectKey } from "./owner-index.ts";
import type { Reconciler, ReconcileResult } from "./reconciler.ts";

// The garbage collector (pkg/controller/garbagecollector), over every resource the simulated
// cluster serves:
// - background: an object whose owners are all gone is deleted; one that still has an owner
//   only loses the references to owners that are gone (or waiting for their dependents);
// - foreground: an owner being deleted with the `foregroundDeletion` finalizer gets its
//   dependents deleted, and keeps the finalizer until no dependent with
//   `blockOwnerDeletion: true` is left;
// - orphan: an owner with the `orphan` finalizer is removed from its dependents'
//   ownerReferences, then loses the finalizer.
// A key is one object; reconciling it is attemptToDeleteItem, processDeletingDependentsItem
// or attemptToOrphan, whichever its state calls for.

export const FOREGROUND_FINALIZER = "foregroundDeletion";
export const ORPHAN_FINALIZER = "orphan";

const COMPONENT = "garbage-collector-controller";

type Policy = "Background" | "Foreground" | "Orphan";

const isDeletingDependents = (object: StoredObject) =>
  Boolean(object.metadata.deletionTimestamp) && (object.metadata.finalizers ?? []).includes(FOREGROUND_FINALIZER);
const isOrphaning = (object: StoredObject) => Boolean(object.metadata.deletionTimestamp) && (object.metadata.finalizers ?? []).includes(ORPHAN_FINALIZER);

/** objectReference.String() of the real collector. */
const describeReference = (reference: OwnerReference, namespace: string) =>
  `[${reference.apiVersion}/${reference.kind}, namespace: ${namespace}, name: ${reference.name}, uid: ${reference.uid}]`;

const ignoreGone = (error: unknown) => {
  // NotFound: already gone. Conflict: replaced by an object with another uid, not ours to touch.
  if (error instanceof StatusError && (error.status.reason === "NotFound" || error.status.reason === "Conflict")) return;
  throw error;
};

export class GarbageCollector implements Reconciler {
  readonly name = "garbage-collector";
  private readonly index = new OwnerIndex();

  constructor(
    private readonly store: ObjectStore,
    private readonly recorder?: EventRecorder,
  ) {}

  initialKeys(): string[] {
    this.index.rebuild(this.store);
    const keys: string[] = [];
    for (const { resource, object } of this.store.snapshot().objects) {
      if (object.metadata.ownerReferences?.length || isDeletingDependents(object) || isOrphaning(object)) keys.push(objectKey(resource, object));
    }
    return keys;
  }

  keysFor(event: StoreEvent): string[] {
    const keys: string[] = [];
    const { object, previous } = event;
    const key = objectKey(event.resource, object);
    // Owners waiting on this object (foreground) must look again when it goes or lets go.
    const waitingOwners = (of: StoredObject) =>
      (of.metadata.ownerReferences ?? []).flatMap((reference) => {
        const ownerKey = ownerKeyOf(reference, of);
        if (!ownerKey) return [];
        const address = parseObjectKey(ownerKey);
        const owner = this.store.peek(address.ref, address.namespace, address.name);
        return owner && owner.metadata.uid === reference.uid && isDeletingDependents(owner) ? [ownerKey] : [];
      });
    switch (event.type) {
      case "ADDED":
        if (object.metadata.ownerReferences?.length || isDeletingDependents(object) || isOrphaning(object)) keys.push(key);
        break;
      case "MODIFIED": {
        const referencesChanged = JSON.stringify(previous?.metadata.ownerReferences ?? []) !== JSON.stringify(object.metadata.ownerReferences ?? []);
        if (referencesChanged) {
          keys.push(key);
          if (previous) keys.push(...waitingOwners(previous));
        }
        const finalizersChanged = JSON.stringify(previous?.metadata.finalizers ?? []) !== JSON.stringify(object.metadata.finalizers ?? []);
        const deletionStarted = Boolean(object.metadata.deletionTimestamp) && !previous?.metadata.deletionTimestamp;
        if ((isDeletingDependents(object) || isOrphaning(object)) && (finalizersChanged || deletionStarted)) keys.push(key);
        break;
      }
      case "DELETED":
        keys.push(...this.index.dependentsOf(object.metadata.uid));
        keys.push(...waitingOwners(previous ?? object));
        break;
    }
    this.index.observe(event);
    return [...new Set(keys)];
  }

  reconcile(key: string): ReconcileResult | void {
    const address = parseObjectKey(key);
    const item = this.store.peek(address.ref, address.namespace, address.name);
    if (!item) return;
    if (isOrphaning(item)) {
      this.orphanDependents(address, item);
      return;
    }
    if (isDeletingDependents(item)) {
      this.processDeletingDependents(address, item);
      return;
    }
    this.attemptToDelete(address, item);
  }

  private lookup(key: ObjectKey): { address: ObjectAddress; object: StoredObject } | undefined {
    const address = parseObjectKey(key);
    const object = this.store.peek(address.ref, address.namespace, address.name);
    return object ? { address, object } : undefined;
  }

  /** attemptToDeleteItem: delete an object none of whose owners is left. */
  private attemptToDelete(address: ObjectAddress, item: StoredObject): void {
    // Being deleted is a one-way trip: wait for it to go, then deal with its dependents.
    if (item.metadata.deletionTimestamp && !isDeletingDependents(item)) return;
    if (isDeletingDependents(item)) return this.processDeletingDependents(address, item);
    const references = item.metadata.ownerReferences ?? [];
    if (references.length === 0) return;

    const solid: OwnerReference[] = [];
    const dangling: OwnerReference[] = [];
    const waiting: OwnerReference[] = [];
    for (const reference of references) {
      const definition = resourceOfOwner(reference);
      // An owner of a kind the cluster does not serve cannot be verified: leave the object be.
      if (!definition) {
        solid.push(reference);
        continue;
      }
      if (!item.metadata.namespace && definition.namespaced) {
        // A cluster-scoped object cannot be owned by a namespaced one: the reference is
        // unresolvable and the object is never collected.
        this.recorder?.record(item, "Warning", "OwnerRefInvalidNamespace", `ownerRef ${describeReference(reference, "")} does not exist in namespace ""`, COMPONENT);
        return;
      }
      const owner = this.store.peek(definition, definition.namespaced ? item.metadata.namespace : undefined, reference.name);
      if (!owner || owner.metadata.uid !== reference.uid) {
        const elsewhere = this.index.keyOfUid(reference.uid);
        if (definition.namespaced && elsewhere && parseObjectKey(elsewhere).namespace !== item.metadata.namespace) {
          const namespace = item.metadata.namespace ?? "";
          this.recorder?.record(item, "Warning", "OwnerRefInvalidNamespace", `ownerRef ${describeReference(reference, namespace)} does not exist in namespace "${namespace}"`, COMPONENT);
        }
        dangling.push(reference);
      } else if (isDeletingDependents(owner)) {
        waiting.push(reference);
      } else {
        solid.push(reference);
      }
    }

    if (solid.length > 0) {
      if (dangling.length === 0 && waiting.length === 0) return;
      // Owners that are gone, or waiting for their dependents, let go of this one.
      this.removeOwnerReferences(address, item, new Set([...dangling, ...waiting].map((reference) => reference.uid)));
      return;
    }
    if (waiting.length > 0 && this.index.hasDependents(item.metadata.uid)) {
      // Its own dependents must go first: delete it in the foreground too.
      this.deleteObject(address, item, "Foreground");
      return;
    }
    const finalizers = item.metadata.finalizers ?? [];
    this.deleteObject(address, item, finalizers.includes(ORPHAN_FINALIZER) ? "Orphan" : finalizers.includes(FOREGROUND_FINALIZER) ? "Foreground" : "Background");
  }

  /** processDeletingDependentsItem: the owner keeps its finalizer while a blocking dependent is left. */
  private processDeletingDependents(address: ObjectAddress, owner: StoredObject): void {
    const uid = owner.metadata.uid;
    const dependents = this.index.dependentsOf(uid).flatMap((key) => {
      const found = this.lookup(key);
      return found && (found.object.metadata.ownerReferences ?? []).some((reference) => reference.uid === uid) ? [found] : [];
    });
    const blocking = dependents.filter(({ object }) => (object.metadata.ownerReferences ?? []).some((reference) => reference.uid === uid && reference.blockOwnerDeletion === true));
    if (blocking.length === 0) {
      this.removeFinalizer(address, owner, FOREGROUND_FINALIZER);
      return;
    }
    for (const dependent of dependents) {
      if (!dependent.object.metadata.deletionTimestamp) this.attemptToDelete(dependent.address, dependent.object);
    }
  }

  /** attemptToOrphan: take the owner out of its dependents' ownerReferences, then drop the finalizer. */
  private orphanDependents(address: ObjectAddress, owner: StoredObject): void {
    const uid = owner.metadata.uid;
    for (const key of this.index.dependentsOf(uid)) {
      const found = this.lookup(key);
      if (found) this.removeOwnerReferences(found.address, found.object, new Set([uid]));
    }
    this.removeFinalizer(address, owner, ORPHAN_FINALIZER);
  }

  private removeOwnerReferences(address: ObjectAddress, object: StoredObject, uids: Set<string>): void {
    const references = object.metadata.ownerReferences ?? [];
    const kept = references.filter((reference) => !uids.has(reference.uid));
    if (kept.length === references.length) return;
    const next = clone(object);
    if (kept.length > 0) next.metadata.ownerReferences = kept;
    else delete next.metadata.ownerReferences;
    try {
      this.store.update(address.ref, next);
    } catch (error) {
      ignoreGone(error);
    }
  }

  private removeFinalizer(address: ObjectAddress, object: StoredObject, finalizer: string): void {
    const finalizers = object.metadata.finalizers ?? [];
    if (!finalizers.includes(finalizer)) return;
    const next = clone(object);
    const kept = finalizers.filter((one) => one !== finalizer);
    if (kept.length > 0) next.metadata.finalizers = kept;
    else delete next.metadata.finalizers;
    try {
      this.store.update(address.ref, next);
    } catch (error) {
      ignoreGone(error);
    }
  }

  /** A delete as the collector sends it: with the uid as precondition and the kind's default grace (pods). */
  private deleteObject(address: ObjectAddress, object: StoredObject, policy: Policy): void {
    const definition = resourceFor(address.ref.group, address.ref.resource);
    try {
      this.store.delete(address.ref, address.namespace, address.name, {
        preconditions: { uid: object.metadata.uid },
        gracePeriodSeconds: strategyFor(definition).deletionGracePeriodSeconds?.(object) ?? 0,
        addFinalizers: policy === "Foreground" ? [FOREGROUND_FINALIZER] : policy === "Orphan" ? [ORPHAN_FINALIZER] : [],
      });
    } catch (error) {
      ignoreGone(error);
    }
  }
}
