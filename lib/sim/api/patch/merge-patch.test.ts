import { describe, expect, it } from "vitest";
import { PatchError } from "./errors.ts";
import type { JsonValue } from "./json-value.ts";
import { applyMergePatch } from "./merge-patch.ts";

describe("applyMergePatch (RFC 7386, as evanphx/json-patch v4 applies it)", () => {
  // RFC 7386 appendix A, minus the two cases json-patch v4 refuses (see below).
  const cases: Array<[string, JsonValue, JsonValue, JsonValue]> = [
    ["replaces a member", { a: "b" }, { a: "c" }, { a: "c" }],
    ["adds a member", { a: "b" }, { b: "c" }, { a: "b", b: "c" }],
    ["removes a member with null", { a: "b" }, { a: null }, {}],
    ["removes only the nulled member", { a: "b", b: "c" }, { a: null }, { b: "c" }],
    ["replaces an array with a scalar", { a: ["b"] }, { a: "c" }, { a: "c" }],
    ["replaces a scalar with an array", { a: "c" }, { a: ["b"] }, { a: ["b"] }],
    ["merges nested objects", { a: { b: "c" } }, { a: { b: "d", c: null } }, { a: { b: "d" } }],
    ["replaces arrays whole", { a: [{ b: "c" }] }, { a: [1] }, { a: [1] }],
    ["an array patch replaces an array document", ["a", "b"], ["c", "d"], ["c", "d"]],
    ["an array patch replaces an object document", { a: "b" }, ["c"], ["c"]],
    ["keeps existing nulls it does not touch", { e: null }, { a: 1 }, { e: null, a: 1 }],
    ["an object patch on an array document drops the patch's nulls", [1, 2], { a: "b", c: null }, { a: "b" }],
    ["drops nulls inside a new subtree", {}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
    ["keeps nulls inside arrays, prunes objects inside them", {}, { a: [null, { x: null, y: 1 }] }, { a: [null, { y: 1 }] }],
    [
      "merges labels and removes one, as kubectl label --overwrite / label- do",
      { metadata: { name: "p", labels: { app: "web", tier: "a" } } },
      { metadata: { labels: { tier: null, track: "stable" } } },
      { metadata: { name: "p", labels: { app: "web", track: "stable" } } },
    ],
    [
      "replaces a list of containers whole (no merge keys in a merge patch)",
      { spec: { containers: [{ name: "a", image: "x" }, { name: "b", image: "y" }] } },
      { spec: { containers: [{ name: "a", image: "z" }] } },
      { spec: { containers: [{ name: "a", image: "z" }] } },
    ],
  ];

  it.each(cases)("%s", (_name, target, patch, expected) => {
    expect(applyMergePatch(target, patch)).toEqual(expected);
  });

  it("refuses a null or scalar patch with 400 Invalid JSON Patch (the RFC would return the patch)", () => {
    for (const patch of [null, "bar", 1, true]) {
      let error: unknown;
      try {
        applyMergePatch({ a: "foo" }, patch);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(PatchError);
      expect(error).toMatchObject({ code: 400, reason: "BadRequest", message: "Invalid JSON Patch" });
    }
  });

  it("does not change its arguments", () => {
    const target = { a: { b: 1 }, c: [1] };
    const patch = { a: { b: null, d: { e: null } }, c: null };
    const before = structuredClone({ target, patch });
    expect(applyMergePatch(target, patch)).toEqual({ a: { d: {} } });
    expect({ target, patch }).toEqual(before);
  });

  it("keeps a \"__proto__\" member a member, not a prototype", () => {
    const patch: unknown = JSON.parse('{"metadata":{"labels":{"__proto__":"x"}}}');
    const result = applyMergePatch({ metadata: { labels: { a: "b" } } }, patch) as { metadata: { labels: Record<string, string> } };
    expect(Object.keys(result.metadata.labels)).toEqual(["a", "__proto__"]);
    expect(Object.getPrototypeOf(result.metadata.labels)).toBe(Object.prototype);
  });
});
