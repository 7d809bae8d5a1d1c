// The pure half of a watch cache: apply one watch event to the objects known so far, keyed by
// namespace/name. resourceVersions are opaque: they are stored and handed back, never compared.

export interface ObjectWithMeta {
  metadata?: { name?: string; namespace?: string; uid?: string; resourceVersion?: string };
}

export type WatchEventType = "ADDED" | "MODIFIED" | "DELETED";

export interface CacheChange<T> {
  type: WatchEventType;
  object: T;
  /** What the cache held before, for MODIFIED and DELETED. */
  previous?: T;
}

export function cacheKey(object: ObjectWithMeta): string {
  const metadata = object.metadata ?? {};
  return metadata.namespace ? `${metadata.namespace}/${metadata.name}` : String(metadata.name);
}

/** Applies a watch event; returns the change it made, or null when it changed nothing. */
export function applyWatchEvent<T extends ObjectWithMeta>(objects: Map<string, T>, type: WatchEventType, object: T): CacheChange<T> | null {
  const key = cacheKey(object);
  const previous = objects.get(key);
  if (type === "DELETED") {
    if (!previous) return null;
    objects.delete(key);
    return { type, object, previous };
  }
  if (previous && previous.metadata?.resourceVersion === object.metadata?.resourceVersion && previous.metadata?.uid === object.metadata?.uid) return null;
  objects.set(key, object);
  // An object replaced under the same name (new uid) arrives as a new one.
  return previous ? { type: "MODIFIED", object, previous } : { type: "ADDED", object };
}

/**
 * After a re-list: the changes that turn what the cache held into what the list says, so that
 * listeners see deletions that happened while the watch was down.
 */
export function replaceAll<T extends ObjectWithMeta>(objects: Map<string, T>, listed: T[]): CacheChange<T>[] {
  const changes: CacheChange<T>[] = [];
  const seen = new Set<string>();
  for (const object of listed) {
    seen.add(cacheKey(object));
    const change = applyWatchEvent(objects, "MODIFIED", object);
    if (change) changes.push(change);
  }
  for (const [key, previous] of [...objects]) {
    if (seen.has(key)) continue;
    objects.delete(key);
    changes.push({ type: "DELETED", object: previous, previous });
  }
  return changes;
}
