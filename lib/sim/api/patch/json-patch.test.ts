import { describe, expect, it } from "vitest";
import { PatchError } from "./errors.ts";
import { applyJsonPatch } from "./json-patch.ts";
import type { JsonObject, JsonValue } from "./json-value.ts";

const pod = (): JsonObject => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name: "box", labels: { app: "agent" }, annotations: { "example.com/owner": "ana", "a~b": "tilde" } },
  spec: { containers: [{ name: "agent", image: "img:1" }], tolerations: [] },
});

function failure(run: () => unknown): PatchError {
  try {
    run();
  } catch (error) {
    if (error instanceof PatchError) return error;
    throw error;
  }
  throw new Error("expected a PatchError");
}

describe("applyJsonPatch (RFC 6902, as json-patch v4 in kube-apiserver applies it)", () => {
  const cases: Array<[string, JsonValue, JsonValue]> = [
    ["adds a member", [{ op: "add", path: "/metadata/labels/tier", value: "gpu" }], { app: "agent", tier: "gpu" }],
    ["adds over an existing member", [{ op: "add", path: "/metadata/labels/app", value: "other" }], { app: "other" }],
    ["replaces a member", [{ op: "replace", path: "/metadata/labels/app", value: "x" }], { app: "x" }],
    ["replace of a missing member adds it (json-patch v4)", [{ op: "replace", path: "/metadata/labels/new", value: "y" }], { app: "agent", new: "y" }],
    ["removes a member", [{ op: "remove", path: "/metadata/labels/app" }], {}],
    ["passes a test, then removes", [{ op: "test", path: "/metadata/labels/app", value: "agent" }, { op: "remove", path: "/metadata/labels/app" }], {}],
    ["moves a member", [{ op: "move", from: "/metadata/labels/app", path: "/metadata/labels/role" }], { role: "agent" }],
    ["copies a member", [{ op: "copy", from: "/metadata/labels/app", path: "/metadata/labels/role" }], { app: "agent", role: "agent" }],
    ["copies a missing member as null (json-patch v4)", [{ op: "copy", from: "/metadata/labels/nope", path: "/metadata/labels/role" }], { app: "agent", role: null }],
  ];

  it.each(cases)("%s", (_name, ops, labels) => {
    const result = applyJsonPatch(pod(), ops) as JsonObject;
    expect((result["metadata"] as JsonObject)["labels"]).toEqual(labels);
  });

  it("unescapes ~1 and ~0 in pointers", () => {
    const result = applyJsonPatch(pod(), [
      { op: "replace", path: "/metadata/annotations/example.com~1owner", value: "bo" },
      { op: "remove", path: "/metadata/annotations/a~0b" },
      { op: "add", path: "/metadata/annotations/x~01", value: "literal" },
    ]) as JsonObject;
    expect((result["metadata"] as JsonObject)["annotations"]).toEqual({ "example.com/owner": "bo", "x~1": "literal" });
  });

  it("adds to arrays by index and appends with -", () => {
    const result = applyJsonPatch({ a: [1, 2] }, [
      { op: "add", path: "/a/0", value: 0 },
      { op: "add", path: "/a/-", value: 3 },
      { op: "add", path: "/a/4", value: 4 },
    ]);
    expect(result).toEqual({ a: [0, 1, 2, 3, 4] });
  });

  it("replaces and removes array items, negative indices counting from the end", () => {
    expect(applyJsonPatch({ a: [1, 2, 3] }, [{ op: "replace", path: "/a/1", value: 9 }])).toEqual({ a: [1, 9, 3] });
    expect(applyJsonPatch({ a: [1, 2, 3] }, [{ op: "remove", path: "/a/-1" }])).toEqual({ a: [1, 2] });
  });

  it("adds a toleration to spec.tolerations, as Berth's drain helpers do", () => {
    const result = applyJsonPatch(pod(), [{ op: "add", path: "/spec/tolerations/-", value: { key: "k", operator: "Exists" } }]) as JsonObject;
    expect((result["spec"] as JsonObject)["tolerations"]).toEqual([{ key: "k", operator: "Exists" }]);
  });

  it("compares objects in test by the document's members only (json-patch v4)", () => {
    expect(() => applyJsonPatch({ a: { x: 1 } }, [{ op: "test", path: "/a", value: { x: 1, y: 2 } }])).not.toThrow();
    expect(() => applyJsonPatch({ a: { x: 1, y: 2 } }, [{ op: "test", path: "/a", value: { x: 1 } }])).toThrow(PatchError);
    expect(() => applyJsonPatch({ a: [1, 2] }, [{ op: "test", path: "/a", value: [1, 2] }])).not.toThrow();
    expect(() => applyJsonPatch({ a: null }, [{ op: "test", path: "/a", value: null }])).not.toThrow();
    expect(() => applyJsonPatch({}, [{ op: "test", path: "/missing", value: null }])).not.toThrow();
  });

  it("answers a failed test with 422 and the apiserver's generic message", () => {
    const error = failure(() => applyJsonPatch(pod(), [{ op: "test", path: "/metadata/labels/app", value: "web" }]));
    expect(error).toMatchObject({ code: 422, reason: "Invalid", message: "the server rejected our request due to an error in our request" });
    expect(error.detail).toBe("testing value /metadata/labels/app failed: test failed");
    expect(error.toStatus()).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: "the server rejected our request due to an error in our request",
      reason: "Invalid",
      code: 422,
    });
  });

  const failures: Array<[string, JsonValue, string]> = [
    ["remove of a missing member", [{ op: "remove", path: "/metadata/labels/nope" }], "error in remove for path: '/metadata/labels/nope': Unable to remove nonexistent key: nope: missing value"],
    ["add under a missing parent", [{ op: "add", path: "/spec/missing/x", value: 1 }], 'add operation does not apply: doc is missing path: "/spec/missing/x": missing value'],
    ["remove under a missing parent", [{ op: "remove", path: "/status/phase" }], 'remove operation does not apply: doc is missing path: "/status/phase": missing value'],
    ["replace of a missing array item", [{ op: "replace", path: "/spec/containers/5", value: {} }], "replace operation does not apply: doc is missing key: /spec/containers/5: missing value"],
    ["add past the end of an array", [{ op: "add", path: "/spec/containers/2", value: {} }], "error in add for path: '/spec/containers/2': Unable to access invalid index: 2: invalid index referenced"],
    [
      "add with a non-numeric array index",
      [{ op: "add", path: "/spec/containers/x", value: {} }],
      "error in add for path: '/spec/containers/x': value was not a proper array index: 'x': strconv.Atoi: parsing \"x\": invalid syntax",
    ],
    ["move from a missing member", [{ op: "move", from: "/metadata/labels/nope", path: "/metadata/labels/x" }], "error in move for path: 'nope': Unable to remove nonexistent key: nope: missing value"],
    ["test under a missing parent", [{ op: "test", path: "/status/phase", value: "Running" }], "test operation does not apply: is missing path: /status/phase: missing value"],
    ["an unknown op", [{ op: "frobnicate", path: "/a" }], "Unexpected kind: frobnicate"],
    ["an op without op", [{ path: "/a" }], "Unexpected kind: unknown"],
    ["an add without path", [{ op: "add", value: 1 }], "add operation failed to decode path: missing value"],
    ["a replace without path", [{ op: "replace", value: 1 }], "replace operation failed to decode path: operation missing path field: missing value"],
    ["a move without from", [{ op: "move", path: "/a" }], "move operation failed to decode from: operation, missing from field: missing value"],
  ];

  it.each(failures)("fails with 422 for %s", (_name, ops, detail) => {
    const error = failure(() => applyJsonPatch(pod(), ops));
    expect(error.code).toBe(422);
    expect(error.detail).toBe(detail);
  });

  it("refuses a body that is not a list of operations with 400 and Go's decoding error", () => {
    expect(failure(() => applyJsonPatch(pod(), { op: "add" }))).toMatchObject({ code: 400, reason: "BadRequest", message: "json: cannot unmarshal object into Go value of type jsonpatch.Patch" });
    expect(failure(() => applyJsonPatch(pod(), ["add"]))).toMatchObject({ code: 400, message: "json: cannot unmarshal string into Go value of type jsonpatch.Operation" });
  });

  it("treats a null body as no operations", () => {
    expect(applyJsonPatch(pod(), null)).toEqual(pod());
  });

  it("refuses more than 10000 operations with 413", () => {
    const ops = Array.from({ length: 10001 }, () => ({ op: "test", path: "/kind", value: "Pod" }));
    expect(failure(() => applyJsonPatch(pod(), ops))).toMatchObject({
      code: 413,
      reason: "RequestEntityTooLarge",
      message: "Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001",
    });
  });

  it("leaves the document untouched when a later operation fails", () => {
    const target = pod();
    const before = structuredClone(target);
    expect(() =>
      applyJsonPatch(target, [
        { op: "add", path: "/metadata/labels/x", value: "1" },
        { op: "test", path: "/metadata/labels/app", value: "nope" },
      ]),
    ).toThrow(PatchError);
    expect(target).toEqual(before);
  });

  it("removes and moves array items", () => {
    expect(applyJsonPatch({ a: [1, 2, 3], b: [] }, [{ op: "move", from: "/a/0", path: "/b/-" }])).toEqual({ a: [2, 3], b: [1] });
    expect(applyJsonPatch({ a: [1, 2, 3] }, [{ op: "remove", path: "/a/1" }])).toEqual({ a: [1, 3] });
    expect(failure(() => applyJsonPatch({ a: [1] }, [{ op: "remove", path: "/a/3" }])).detail).toBe(
      "error in remove for path: '/a/3': Unable to access invalid index: 3: invalid index referenced",
    );
  });

  it("patches a document whose root is an array", () => {
    expect(applyJsonPatch([1], [{ op: "add", path: "/0", value: 0 }])).toEqual([0, 1]);
  });
});
