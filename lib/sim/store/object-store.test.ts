import { describe, expect, it } from "vitest";
import { ManualClock } from "../clock.ts";
import { refs } from "../k8s-objects.ts";
import { ObjectStore } from "./object-store.ts";

// What the rest of the simulated cluster may rely on when it shares the stored objects
// themselves: they never change in place, so the JSON saved for each stays true.

const aSecret = (name: string, data: Record<string, string> = {}) => ({ apiVersion: "v1", kind: "Secret", metadata: { name, namespace: "default" }, data });

function aStore() {
  const store = new ObjectStore(new ManualClock());
  store.create(refs.namespaces, { apiVersion: "v1", kind: "Namespace", metadata: { name: "default" } });
  store.create(refs.secrets, aSecret("kept", { a: "1" }));
  store.create(refs.secrets, aSecret("changed", { a: "1" }));
  store.create(refs.secrets, aSecret("deleted"));
  return store;
}

describe("the simulated cluster's object store", () => {
  it("saves as the JSON of its snapshot", () => {
    const store = aStore();
    expect(JSON.parse(store.snapshotJson())).toEqual(store.snapshot());
  });

  it("saves what objects are now, not the JSON of what they were when last saved", () => {
    const store = aStore();
    store.snapshotJson();
    const current = store.get(refs.secrets, "default", "changed");
    store.update(refs.secrets, { ...current, data: { a: "2" } });
    store.delete(refs.secrets, "default", "deleted");
    store.create(refs.secrets, aSecret("added"));
    expect(JSON.parse(store.snapshotJson())).toEqual(store.snapshot());
  });

  it("refuses a change made in place to a stored object", () => {
    const store = aStore();
    const stored = store.peek(refs.secrets, "default", "kept")!;
    expect(() => {
      (stored.data as Record<string, string>).a = "changed behind the store's back";
    }).toThrow(TypeError);
  });

  it("hands out copies that callers may change", () => {
    const store = aStore();
    const copy = store.get(refs.secrets, "default", "kept");
    (copy.data as Record<string, string>).a = "mine";
    expect(store.peek(refs.secrets, "default", "kept")!.data).toEqual({ a: "1" });
  });
});
