import type { OwnerReference, StoredObject } from "../objects.ts";
import { RESOURCES, type ResourceDefinition } from "../api/resources.ts";
import type { ResourceRef } from "../status-error.ts";
import { resourceId, type ObjectStore, type StoreEvent } from "../store/object-store.ts";

// The garbage collector's dependency graph, reduced to what the simulation needs: for every
// uid, the objects whose ownerReferences name it, and where each uid lives. Kept up to date
// from store events (as the real GraphBuilder is from informers) so that finding an owner's
// dependents never scans the store — 10,000 sandboxes with their pods and claims stay cheap.

/** An object's address in the store: `<resourceId>|<namespace>|<name>` (namespace empty when cluster-scoped). */
export type ObjectKey = string;

export interface ObjectAddress {
  /** The store's resource id: "pods", "agents.x-k8s.io/sandboxes". */
  resource: string;
  ref: ResourceRef;
  namespace: string | undefined;
  name: string;
}

export function objectKey(resource: string, object: Pick<StoredObject, "metadata">): ObjectKey {
  return `${resource}|${object.metadata.namespace ?? ""}|${object.metadata.name}`;
}

export function refOfResourceId(resource: string): ResourceRef {
  const slash = resource.lastIndexOf("/");
  return slash === -1 ? { group: "", resource } : { group: resource.slice(0, slash), resource: resource.slice(slash + 1) };
}

export function parseObjectKey(key: ObjectKey): ObjectAddress {
  const [resource = "", namespace = "", ...name] = key.split("|");
  return { resource, ref: refOfResourceId(resource), namespace: namespace || undefined, name: name.join("|") };
}

/** The served resource an ownerReference's apiVersion/kind names, as the GC's REST mapper finds it. */
export function resourceOfOwner(reference: Pick<OwnerReference, "apiVersion" | "kind">): ResourceDefinition | undefined {
  const slash = reference.apiVersion.indexOf("/");
  const group = slash === -1 ? "" : reference.apiVersion.slice(0, slash);
  return RESOURCES.find((definition) => definition.group === group && definition.kind === reference.kind);
}

/** Where the owner a reference names would be, seen from its dependent. */
export function ownerKeyOf(reference: OwnerReference, dependent: StoredObject): ObjectKey | undefined {
  const definition = resourceOfOwner(reference);
  if (!definition) return undefined;
  const namespace = definition.namespaced ? dependent.metadata.namespace : undefined;
  if (definition.namespaced && !namespace) return undefined;
  return `${resourceId(definition)}|${namespace ?? ""}|${reference.name}`;
}

const sameReferences = (a: OwnerReference[] | undefined, b: OwnerReference[] | undefined) => JSON.stringify(a ?? []) === JSON.stringify(b ?? []);

export class OwnerIndex {
  /** owner uid → keys of the objects that reference it. */
  private readonly dependents = new Map<string, Set<ObjectKey>>();
  /** uid → key, for every object the store holds. */
  private readonly keys = new Map<string, ObjectKey>();
  private built = false;

  get ready(): boolean {
    return this.built;
  }

  /** Reads every object of every served resource; afterwards `observe` keeps the index current. */
  rebuild(store: ObjectStore): void {
    this.dependents.clear();
    this.keys.clear();
    for (const definition of RESOURCES) {
      const resource = resourceId(definition);
      for (const object of store.list(definition)) this.add(resource, object);
    }
    this.built = true;
  }

  observe(event: StoreEvent): void {
    if (!this.built) return;
    const key = objectKey(event.resource, event.object);
    switch (event.type) {
      case "ADDED":
        this.add(event.resource, event.object);
        return;
      case "MODIFIED":
        if (!sameReferences(event.previous?.metadata.ownerReferences, event.object.metadata.ownerReferences)) {
          if (event.previous) this.unlink(key, event.previous);
          this.link(key, event.object);
        }
        return;
      case "DELETED":
        this.unlink(key, event.previous ?? event.object);
        this.keys.delete(event.object.metadata.uid);
        // Dependents keep pointing at a gone owner's uid until the collector deals with them;
        // their entry under that uid goes when they change or go.
        return;
    }
  }

  dependentsOf(uid: string): ObjectKey[] {
    return [...(this.dependents.get(uid) ?? [])];
  }

  hasDependents(uid: string): boolean {
    return (this.dependents.get(uid)?.size ?? 0) > 0;
  }

  /** Where the object with this uid is, if the store holds it. */
  keyOfUid(uid: string): ObjectKey | undefined {
    return this.keys.get(uid);
  }

  private add(resource: string, object: StoredObject): void {
    const key = objectKey(resource, object);
    this.keys.set(object.metadata.uid, key);
    this.link(key, object);
  }

  private link(key: ObjectKey, object: StoredObject): void {
    for (const reference of object.metadata.ownerReferences ?? []) {
      let set = this.dependents.get(reference.uid);
      if (!set) this.dependents.set(reference.uid, (set = new Set()));
      set.add(key);
    }
  }

  private unlink(key: ObjectKey, object: StoredObject): void {
    for (const reference of object.metadata.ownerReferences ?? []) {
      const set = this.dependents.get(reference.uid);
      if (!set) continue;
      set.delete(key);
      if (set.size === 0) this.dependents.delete(reference.uid);
    }
  }
}
