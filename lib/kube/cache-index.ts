import { cacheKey, type CacheChange, type ObjectWithMeta } from "./watch-reducer.ts";

// A secondary index over a watch cache, the way client-go's Indexers are: objects looked up by a
// value derived from them (a label, the object an Event is about) without scanning the cache.
// Fed every change of the cache it indexes, from before the cache's first list, so it holds
// exactly what the cache holds. Pure: no I/O.

export class CacheIndex<T extends ObjectWithMeta> {
  private readonly byValue = new Map<string, Map<string, T>>();

  /** `valuesOf`: the values an object is found under; none leaves it out of the index. */
  constructor(private readonly valuesOf: (object: T) => readonly (string | undefined)[]) {}

  /** Follows one change of the cache: what it held before is forgotten, what it holds now is indexed. */
  apply(change: CacheChange<T>): void {
    if (change.previous) this.update(change.previous, (objects, key) => objects.delete(key));
    if (change.type !== "DELETED") this.update(change.object, (objects, key, object) => objects.set(key, object));
  }

  /** The objects found under `value`, in no particular order. */
  get(value: string): T[] {
    const objects = this.byValue.get(value);
    return objects ? [...objects.values()] : [];
  }

  private update(object: T, change: (objects: Map<string, T>, key: string, object: T) => void): void {
    const key = cacheKey(object);
    for (const value of new Set(this.valuesOf(object))) {
      if (value === undefined) continue;
      let objects = this.byValue.get(value);
      if (!objects) this.byValue.set(value, (objects = new Map()));
      change(objects, key, object);
      if (objects.size === 0) this.byValue.delete(value);
    }
  }
}
