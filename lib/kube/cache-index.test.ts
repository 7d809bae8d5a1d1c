import { describe, expect, it } from "vitest";
import { CacheIndex } from "./cache-index.ts";
import { applyWatchEvent, replaceAll, type CacheChange } from "./watch-reducer.ts";

interface Labelled {
  metadata: { name: string; namespace: string; resourceVersion: string; labels?: Record<string, string> };
}

const claim = (name: string, owner: string | undefined, resourceVersion = "1"): Labelled => ({
  metadata: { name, namespace: "default", resourceVersion, ...(owner ? { labels: { owner } } : {}) },
});

/** An index by the `owner` label, fed the changes a cache makes. */
function indexed() {
  const objects = new Map<string, Labelled>();
  const index = new CacheIndex<Labelled>((object) => [object.metadata.labels?.owner]);
  const feed = (change: CacheChange<Labelled> | null) => change && index.apply(change);
  return { index, watch: (type: "ADDED" | "MODIFIED" | "DELETED", object: Labelled) => feed(applyWatchEvent(objects, type, object)), relist: (listed: Labelled[]) => replaceAll(objects, listed).forEach(feed) };
}

const names = (objects: Labelled[]) => objects.map((object) => object.metadata.name).sort();

describe("CacheIndex", () => {
  it("finds the objects added under a value", () => {
    const { index, watch } = indexed();
    watch("ADDED", claim("a", "s1"));
    watch("ADDED", claim("b", "s1"));
    watch("ADDED", claim("c", "s2"));
    expect(names(index.get("s1"))).toEqual(["a", "b"]);
  });

  it("moves an object whose value changed", () => {
    const { index, watch } = indexed();
    watch("ADDED", claim("a", "s1"));
    watch("MODIFIED", claim("a", "s2", "2"));
    expect([names(index.get("s1")), names(index.get("s2"))]).toEqual([[], ["a"]]);
  });

  it("holds the newest version of an object", () => {
    const { index, watch } = indexed();
    watch("ADDED", claim("a", "s1"));
    watch("MODIFIED", claim("a", "s1", "2"));
    expect(index.get("s1").map((object) => object.metadata.resourceVersion)).toEqual(["2"]);
  });

  it("forgets a deleted object", () => {
    const { index, watch } = indexed();
    watch("ADDED", claim("a", "s1"));
    watch("DELETED", claim("a", "s1", "2"));
    expect(index.get("s1")).toEqual([]);
  });

  it("leaves out an object with no value", () => {
    const { index, watch } = indexed();
    watch("ADDED", claim("a", undefined));
    expect(index.get("undefined")).toEqual([]);
  });

  it("forgets what vanished while the watch was down, once the cache lists again", () => {
    const { index, watch, relist } = indexed();
    watch("ADDED", claim("a", "s1"));
    watch("ADDED", claim("b", "s1"));
    relist([claim("b", "s1")]);
    expect(names(index.get("s1"))).toEqual(["b"]);
  });
});
