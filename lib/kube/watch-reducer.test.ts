import { describe, expect, it } from "vitest";
import { applyWatchEvent, replaceAll, type ObjectWithMeta } from "./watch-reducer.ts";

const pod = (name: string, resourceVersion: string, uid = `uid-${name}`): ObjectWithMeta => ({ metadata: { name, namespace: "default", uid, resourceVersion } });

describe("applyWatchEvent", () => {
  it("adds an object it has not seen", () => {
    const objects = new Map<string, ObjectWithMeta>();
    expect(applyWatchEvent(objects, "ADDED", pod("a", "1"))?.type).toBe("ADDED");
  });

  it("reports a change with the object it replaces", () => {
    const objects = new Map([["default/a", pod("a", "1")]]);
    const change = applyWatchEvent(objects, "MODIFIED", pod("a", "2"));
    expect(change?.previous?.metadata?.resourceVersion).toBe("1");
  });

  it("ignores an event that repeats what it holds (a replayed ADDED after a reconnect)", () => {
    const objects = new Map([["default/a", pod("a", "1")]]);
    expect(applyWatchEvent(objects, "ADDED", pod("a", "1"))).toBeNull();
  });

  it("treats an object recreated under the same name as changed even with an equal resourceVersion string", () => {
    const objects = new Map([["default/a", pod("a", "7", "old")]]);
    expect(applyWatchEvent(objects, "ADDED", pod("a", "7", "new"))?.type).toBe("MODIFIED");
  });

  it("removes a deleted object", () => {
    const objects = new Map([["default/a", pod("a", "1")]]);
    applyWatchEvent(objects, "DELETED", pod("a", "2"));
    expect(objects.size).toBe(0);
  });

  it("ignores the deletion of an object it never had", () => {
    expect(applyWatchEvent(new Map(), "DELETED", pod("a", "2"))).toBeNull();
  });
});

describe("replaceAll", () => {
  it("reports objects that vanished while the watch was down as deleted", () => {
    const objects = new Map([["default/a", pod("a", "1")], ["default/b", pod("b", "1")]]);
    const changes = replaceAll(objects, [pod("a", "1")]);
    expect(changes.map((change) => `${change.type} ${change.object.metadata?.name}`)).toEqual(["DELETED b"]);
  });

  it("reports objects that appeared or changed meanwhile", () => {
    const objects = new Map([["default/a", pod("a", "1")]]);
    const changes = replaceAll(objects, [pod("a", "2"), pod("c", "5")]);
    expect(changes.map((change) => `${change.type} ${change.object.metadata?.name}`)).toEqual(["MODIFIED a", "ADDED c"]);
  });
});
