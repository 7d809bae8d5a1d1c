import { randomUUID } from "node:crypto";
import type { Clock } from "../clock.ts";
import { clone, deepEqual, deepFreeze, type KubeObject, type StoredObject } from "../objects.ts";
import { StatusError, type ResourceRef } from "../status-error.ts";

// The simulated etcd plus the generic registry on top of it: one revision counter for every
// object, creation (uid, generateName, creationTimestamp), optimistic concurrency,
// finalizers and deletionTimestamp, and a bounded history that watches replay from. What is
// particular to a kind (validation, status subresources, graceful pod deletion) is decided by
// the API layer before it calls in here.

export type WatchEventType = "ADDED" | "MODIFIED" | "DELETED";

export interface StoreEvent {
  type: WatchEventType;
  resource: string;
  revision: number;
  object: StoredObject;
  /** The object before a MODIFIED or DELETED change. */
  previous?: StoredObject;
}

export type StoreListener = (event: StoreEvent) => void;

export interface Preconditions {
  uid?: string;
  resourceVersion?: string;
}

const GENERATE_NAME_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

function randomSuffix(): string {
  let suffix = "";
  for (let i = 0; i < 5; i++) suffix += GENERATE_NAME_ALPHABET[Math.floor(Math.random() * GENERATE_NAME_ALPHABET.length)];
  return suffix;
}

export function resourceId(ref: ResourceRef): string {
  return ref.group ? `${ref.group}/${ref.resource}` : ref.resource;
}

function key(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

/**
 * The resources whose objects carry `metadata.generation`: those whose API strategy sets it (pods,
 * budgets, deployments, replica sets) and every custom resource. Claims, volumes, nodes, classes, namespaces and events
 * have none on a real API server.
 */
const GENERATION_TRACKED = new Set(["pods", "policy/poddisruptionbudgets", "apps/deployments", "apps/replicasets", "agents.x-k8s.io/sandboxes", "snapshot.storage.k8s.io/volumesnapshots", "snapshot.storage.k8s.io/volumesnapshotclasses"]);

/** Whether anything but metadata and status changed: only then does `generation` move. */
function specChanged(before: KubeObject, after: KubeObject): boolean {
  const strip = ({ metadata: _metadata, status: _status, ...rest }: KubeObject) => rest;
  return !deepEqual(strip(before), strip(after));
}

/** A namespace stays, Terminating, while its spec.finalizers are not empty (not metadata's). */
function heldBySpec(object: KubeObject): boolean {
  const finalizers = (object.spec as { finalizers?: unknown } | undefined)?.finalizers;
  return object.kind === "Namespace" && Array.isArray(finalizers) && finalizers.length > 0;
}

export interface ObjectStoreSnapshot {
  revision: number;
  objects: { resource: string; object: StoredObject }[];
}

export class ObjectStore {
  private revision = 0;
  /** Revisions up to and including this one are no longer in the history. */
  private compactedRevision = 0;
  private readonly objects = new Map<string, Map<string, StoredObject>>();
  private history: StoreEvent[] = [];
  private readonly listeners = new Set<StoreListener>();
  /** Each stored object's JSON, made once: an object is replaced, never changed, so its JSON stays true while it is stored. */
  private readonly json = new WeakMap<StoredObject, string>();

  constructor(
    private readonly clock: Clock,
    /** How many events watches can replay; older resourceVersions get 410 Gone. */
    private readonly historyLimit = 50_000,
    private readonly onListenerError: (error: unknown) => void = (error) => console.error("simulated cluster: a watcher failed", error),
  ) {}

  currentRevision(): number {
    return this.revision;
  }

  oldestReplayableRevision(): number {
    return this.compactedRevision;
  }

  private bucket(resource: string): Map<string, StoredObject> {
    let bucket = this.objects.get(resource);
    if (!bucket) this.objects.set(resource, (bucket = new Map()));
    return bucket;
  }

  /** Stores an object, frozen: from now on it is shared, never changed (a write stores a new one). */
  private put(resource: string, object: StoredObject): void {
    this.bucket(resource).set(key(object.metadata.namespace, object.metadata.name), deepFreeze(object));
  }

  private emit(event: StoreEvent): void {
    this.history.push(event);
    // Trim in chunks, not one event at a time: splicing a long array per write is quadratic.
    if (this.history.length > this.historyLimit * 1.1) {
      const dropped = this.history.splice(0, this.history.length - this.historyLimit);
      this.compactedRevision = dropped[dropped.length - 1]!.revision;
    }
    // One faulty listener must neither starve the others (watches) nor fail the write that
    // already happened.
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }

  private nextRevision(): number {
    return ++this.revision;
  }

  /** The stored object itself, not a copy: frozen, so a change made to it throws. */
  peek(ref: ResourceRef, namespace: string | undefined, name: string): StoredObject | undefined {
    return this.objects.get(resourceId(ref))?.get(key(namespace, name));
  }

  get(ref: ResourceRef, namespace: string | undefined, name: string): StoredObject {
    const found = this.peek(ref, namespace, name);
    if (!found) throw StatusError.notFound(ref, name);
    return clone(found);
  }

  /** Stored objects themselves, not copies (lists of thousands are serialised, not changed). */
  list(ref: ResourceRef, namespace?: string): StoredObject[] {
    const bucket = this.objects.get(resourceId(ref));
    if (!bucket) return [];
    const entries = [...bucket].sort(([a], [b]) => (a < b ? -1 : 1));
    const all = entries.map(([, object]) => object);
    return namespace ? all.filter((object) => object.metadata.namespace === namespace) : all;
  }

  create(ref: ResourceRef, object: KubeObject, options: { dryRun?: boolean } = {}): StoredObject {
    const metadata = object.metadata ?? {};
    const name = metadata.name || (metadata.generateName ? metadata.generateName + randomSuffix() : "");
    if (!name) {
      throw StatusError.invalid(object.kind ?? ref.resource, ref.group, "", [
        { reason: "FieldValueRequired", field: "metadata.name", message: "Required value: name or generateName is required" },
      ]);
    }
    const bucket = this.bucket(resourceId(ref));
    if (bucket.has(key(metadata.namespace, name))) throw StatusError.alreadyExists(ref, name);
    const revision = options.dryRun ? this.revision : this.nextRevision();
    const stored = clone(object) as StoredObject;
    stored.metadata = {
      ...stored.metadata,
      name,
      uid: randomUUID(),
      resourceVersion: String(revision),
      generation: GENERATION_TRACKED.has(resourceId(ref)) ? 1 : undefined,
      creationTimestamp: this.clock.now().toISOString().replace(/\.\d{3}Z$/, "Z"),
    };
    if (stored.metadata.generation === undefined) delete stored.metadata.generation;
    delete stored.metadata.deletionTimestamp;
    delete stored.metadata.deletionGracePeriodSeconds;
    if (options.dryRun) return clone(stored);
    this.put(resourceId(ref), stored);
    this.emit({ type: "ADDED", resource: resourceId(ref), revision, object: stored });
    return clone(stored);
  }

  /**
   * Replaces an object. With `object.metadata.resourceVersion` set, the write only happens if
   * it is still the stored one (409 Conflict otherwise). An object being deleted whose last
   * finalizer goes away is removed.
   */
  update(ref: ResourceRef, object: KubeObject, options: { dryRun?: boolean; keepGeneration?: boolean } = {}): StoredObject {
    const name = object.metadata?.name ?? "";
    const namespace = object.metadata?.namespace;
    const current = this.peek(ref, namespace, name);
    if (!current) throw StatusError.notFound(ref, name);
    const expected = object.metadata.resourceVersion;
    if (expected !== undefined && expected !== "" && expected !== current.metadata.resourceVersion) {
      throw StatusError.conflict(ref, name);
    }
    if (object.metadata.uid !== undefined && object.metadata.uid !== current.metadata.uid) {
      throw StatusError.conflict(ref, name, `Precondition failed: UID in precondition: ${object.metadata.uid}, UID in object meta: ${current.metadata.uid}`);
    }
    const next = clone(object) as StoredObject;
    next.metadata = {
      ...next.metadata,
      name: current.metadata.name,
      uid: current.metadata.uid,
      creationTimestamp: current.metadata.creationTimestamp,
      generation: GENERATION_TRACKED.has(resourceId(ref)) ? (current.metadata.generation ?? 1) + (!options.keepGeneration && specChanged(current, next) ? 1 : 0) : undefined,
      resourceVersion: current.metadata.resourceVersion,
    };
    if (next.metadata.generation === undefined) delete next.metadata.generation;
    // Once set, only the store itself changes the deletion timestamp.
    if (current.metadata.deletionTimestamp) {
      next.metadata.deletionTimestamp = current.metadata.deletionTimestamp;
      next.metadata.deletionGracePeriodSeconds = current.metadata.deletionGracePeriodSeconds;
    } else {
      delete next.metadata.deletionTimestamp;
      delete next.metadata.deletionGracePeriodSeconds;
    }
    if (options.dryRun) return clone(next);
    if (deepEqual(next, current)) return clone(current);
    // The last finalizer going removes the object, unless a grace period is still running (the
    // kubelet ends that) or a namespace still has content to finalize.
    if (next.metadata.deletionTimestamp && !next.metadata.finalizers?.length && !heldBySpec(next) && !current.metadata.deletionGracePeriodSeconds) {
      return this.remove(ref, current, next);
    }
    const revision = this.nextRevision();
    next.metadata.resourceVersion = String(revision);
    this.put(resourceId(ref), next);
    this.emit({ type: "MODIFIED", resource: resourceId(ref), revision, object: next, previous: current });
    return clone(next);
  }

  /**
   * Deletes an object: at once when nothing holds it, otherwise by setting deletionTimestamp
   * (finalizers pending, or a grace period the kubelet has to honour). Returns the object as
   * it now is and whether it is gone.
   */
  delete(
    ref: ResourceRef,
    namespace: string | undefined,
    name: string,
    options: {
      preconditions?: Preconditions;
      gracePeriodSeconds?: number;
      dryRun?: boolean;
      /** Finalizers the deletion itself adds (foregroundDeletion, orphan). */
      addFinalizers?: string[];
    } = {},
  ): { object: StoredObject; deleted: boolean } {
    const current = this.peek(ref, namespace, name);
    if (!current) throw StatusError.notFound(ref, name);
    const { uid, resourceVersion } = options.preconditions ?? {};
    if (uid !== undefined && uid !== current.metadata.uid) {
      throw StatusError.conflict(ref, name, `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${current.metadata.uid}`);
    }
    if (resourceVersion !== undefined && resourceVersion !== current.metadata.resourceVersion) {
      throw StatusError.conflict(
        ref,
        name,
        `Precondition failed: ResourceVersion in precondition: ${resourceVersion}, ResourceVersion in object meta: ${current.metadata.resourceVersion}`,
      );
    }
    const grace = options.gracePeriodSeconds ?? 0;
    const finalizers = [...new Set([...(current.metadata.finalizers ?? []), ...(options.addFinalizers ?? [])])];
    const held = finalizers.length > 0 || grace > 0 || heldBySpec(current);
    if (options.dryRun) return { object: clone(current), deleted: !held };
    if (!held) return { object: this.remove(ref, current, current), deleted: true };
    const next = clone(current);
    if (finalizers.length > 0) next.metadata.finalizers = finalizers;
    const now = this.clock.now();
    // A shorter grace period may cut an ongoing one short, never lengthen it.
    const deadline = new Date(now.getTime() + grace * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
    if (!next.metadata.deletionTimestamp || deadline < next.metadata.deletionTimestamp) {
      next.metadata.deletionTimestamp = deadline;
      next.metadata.deletionGracePeriodSeconds = grace;
    }
    if (deepEqual(next, current)) return { object: clone(current), deleted: false };
    const revision = this.nextRevision();
    next.metadata.resourceVersion = String(revision);
    this.put(resourceId(ref), next);
    this.emit({ type: "MODIFIED", resource: resourceId(ref), revision, object: next, previous: current });
    return { object: clone(next), deleted: false };
  }

  private remove(ref: ResourceRef, current: StoredObject, last: StoredObject): StoredObject {
    const revision = this.nextRevision();
    const gone = clone(last);
    gone.metadata.resourceVersion = String(revision);
    this.bucket(resourceId(ref)).delete(key(current.metadata.namespace, current.metadata.name));
    this.emit({ type: "DELETED", resource: resourceId(ref), revision, object: gone, previous: current });
    return clone(gone);
  }

  /**
   * Events after `revision`, oldest first, for a watch that resumes there. Throws 410 Gone when
   * the history no longer reaches back that far.
   */
  eventsSince(revision: number): StoreEvent[] {
    if (revision < this.compactedRevision) {
      throw StatusError.gone(`too old resource version: ${revision} (${this.compactedRevision + 1})`);
    }
    const first = this.history.findIndex((event) => event.revision > revision);
    return first === -1 ? [] : this.history.slice(first);
  }

  subscribe(listener: StoreListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Forgets the watch history, as etcd compaction does: older resourceVersions get 410. */
  compact(): void {
    this.history = [];
    this.compactedRevision = this.revision;
  }

  snapshot(): ObjectStoreSnapshot {
    const objects: ObjectStoreSnapshot["objects"] = [];
    for (const [resource, bucket] of this.objects) for (const object of bucket.values()) objects.push({ resource, object });
    return { revision: this.revision, objects };
  }

  /**
   * The snapshot as JSON, for saving: each object's JSON is made once and reused until the
   * object is replaced, so saving a large, mostly unchanged cluster costs little.
   */
  snapshotJson(): string {
    const objects: string[] = [];
    for (const [resource, bucket] of this.objects) {
      const resourceJson = JSON.stringify(resource);
      for (const object of bucket.values()) {
        let json = this.json.get(object);
        if (json === undefined) this.json.set(object, (json = JSON.stringify(object)));
        objects.push(`{"resource":${resourceJson},"object":${json}}`);
      }
    }
    return `{"revision":${this.revision},"objects":[${objects.join(",")}]}`;
  }

  /** Loads a snapshot into an empty store. Watches start after it: nothing before is replayable. */
  restore(snapshot: ObjectStoreSnapshot): void {
    this.objects.clear();
    for (const { resource, object } of snapshot.objects) this.put(resource, object);
    this.revision = snapshot.revision;
    this.history = [];
    this.compactedRevision = snapshot.revision;
  }
}
