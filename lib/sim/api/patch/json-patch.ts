// application/json-patch+json: RFC 6902 JSON patch, as kube-apiserver applies it
// (gopkg.in/evanphx/json-patch.v4, called from the apiserver's jsonPatcher).
//
// The apiserver answers:
// - a body that is not a list of operation objects: 400 BadRequest with Go's decoding error;
// - more than 10000 operations: 413 RequestEntityTooLarge;
// - any operation that fails: 422 Invalid with the generic message "the server rejected our request
//   due to an error in our request" (the library's own message is dropped; it is kept on the
//   PatchError as `detail`).
//
// json-patch v4 behaviours kept on purpose, because a real cluster has them:
// - "replace" of a missing object member adds it (v4 only checks array indices);
// - "copy" from a missing object member copies null;
// - negative array indices count from the end (SupportNegativeIndices);
// - "test" of an object compares only the members the document's object has: each must be in the
//   test value with an equal value, members that only the test value has are not looked at;
// - a path without a leading "/" addresses the last segment from the document root.

import { badRequest, requestEntityTooLarge, unknownServerError, unprocessable } from "./errors.ts";
import { cloneJson, isJsonObject, jsonKind, setMember, toJsonValue, type JsonObject, type JsonValue } from "./json-value.ts";

export type JsonPatchOperation =
  | { op: "add"; path: string; value: JsonValue }
  | { op: "remove"; path: string }
  | { op: "replace"; path: string; value: JsonValue }
  | { op: "move"; from: string; path: string }
  | { op: "copy"; from: string; path: string }
  | { op: "test"; path: string; value: JsonValue };

/** The apiserver's maxJSONPatchOperations. */
export const MAX_JSON_PATCH_OPERATIONS = 10000;

class OperationFailure extends Error {}

const fail = (message: string): never => {
  throw new OperationFailure(message);
};

/** errors.Wrapf(cause, format): "format: cause". */
const wrap = (message: string, cause: string) => `${message}: ${cause}`;
const MISSING = "missing value";
const INVALID_INDEX = "invalid index referenced";
const TEST_FAILED = "test failed";

type Container = JsonObject | JsonValue[];

/** RFC 6901 unescaping, in the library's order: "~1" then "~0" in one left-to-right pass. */
function decodePatchKey(segment: string): string {
  return segment.replace(/~[01]/g, (escape) => (escape === "~1" ? "/" : "~"));
}

/** strconv.Atoi */
function atoi(text: string): number {
  if (!/^[+-]?\d+$/.test(text)) fail(`strconv.Atoi: parsing ${JSON.stringify(text)}: invalid syntax`);
  const value = BigInt(text);
  if (value > 2n ** 63n - 1n || value < -(2n ** 63n)) fail(`strconv.Atoi: parsing ${JSON.stringify(text)}: value out of range`);
  return Number(value);
}

const invalidIndex = (index: number) => fail(wrap(`Unable to access invalid index: ${index}`, INVALID_INDEX));

/** container.get: an object member (undefined when missing, like a nil node) or an array item. */
function get(container: Container, key: string): JsonValue | undefined {
  if (!Array.isArray(container)) return Object.hasOwn(container, key) ? container[key] : undefined;
  let index = atoi(key);
  if (index < 0) {
    if (index < -container.length) invalidIndex(index);
    index += container.length;
  }
  if (index >= container.length) invalidIndex(index);
  return container[index];
}

function set(container: Container, key: string, value: JsonValue): void {
  if (!Array.isArray(container)) {
    setMember(container, key, value);
    return;
  }
  let index = atoi(key);
  if (index < 0) {
    if (index < -container.length) invalidIndex(index);
    index += container.length;
  }
  container[index] = value;
}

function add(container: Container, key: string, value: JsonValue): void {
  if (!Array.isArray(container)) {
    setMember(container, key, value);
    return;
  }
  if (key === "-") {
    container.push(value);
    return;
  }
  let index: number;
  try {
    index = atoi(key);
  } catch (error) {
    throw error instanceof OperationFailure ? new OperationFailure(wrap(`value was not a proper array index: '${key}'`, error.message)) : error;
  }
  const size = container.length + 1;
  if (index >= size) invalidIndex(index);
  if (index < 0) {
    if (index < -size) invalidIndex(index);
    index += size;
  }
  container.splice(index, 0, value);
}

function remove(container: Container, key: string): void {
  if (!Array.isArray(container)) {
    if (!Object.hasOwn(container, key)) fail(wrap(`Unable to remove nonexistent key: ${key}`, MISSING));
    delete container[key];
    return;
  }
  let index = atoi(key);
  if (index >= container.length) invalidIndex(index);
  if (index < 0) {
    if (index < -container.length) invalidIndex(index);
    index += container.length;
  }
  container.splice(index, 1);
}

/** findObject: the container that holds the last segment of path, and that segment. */
function findObject(doc: Container, path: string): { container: Container; key: string } | undefined {
  const split = path.split("/");
  if (split.length < 2) return undefined;
  let current: Container = doc;
  for (const part of split.slice(1, -1)) {
    let next: JsonValue | undefined;
    try {
      next = get(current, decodePatchKey(part));
    } catch (error) {
      if (error instanceof OperationFailure) return undefined;
      throw error;
    }
    if (Array.isArray(next) || isJsonObject(next)) current = next;
    else return undefined;
  }
  return { container: current, key: decodePatchKey(split[split.length - 1] ?? "") };
}

/** Re-throws an operation failure with the library's context prefix. */
function within<T>(prefix: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof OperationFailure) throw new OperationFailure(wrap(prefix, error.message));
    throw error;
  }
}

// --- reading an operation, as json-patch's Operation accessors do --------------------------------

type RawOperation = Readonly<Record<string, JsonValue>>;

function kindOf(op: RawOperation): string {
  const value = op["op"];
  return typeof value === "string" ? value : "unknown";
}

/** Operation.Path / Operation.From: the string, or the error the accessor returns. */
function stringField(op: RawOperation, field: "path" | "from"): { value: string } | { error: string } {
  const value = op[field];
  if (value === undefined || value === null) {
    return { error: wrap(field === "path" ? "operation missing path field" : "operation, missing from field", MISSING) };
  }
  if (typeof value !== "string") return { error: `json: cannot unmarshal ${jsonKind(value)} into Go value of type string` };
  return { value };
}

/** The path, or a failure: add/remove/copy report ErrMissing, the others the accessor's error. */
function pathOf(op: RawOperation, prefix: string, causeIsMissing: boolean): string {
  const path = stringField(op, "path");
  if ("error" in path) fail(wrap(prefix, causeIsMissing ? MISSING : path.error));
  return (path as { value: string }).value;
}

function fromOf(op: RawOperation, prefix: string): string {
  const from = stringField(op, "from");
  if ("error" in from) fail(wrap(prefix, from.error));
  return (from as { value: string }).value;
}

/** op.value(): undefined when the operation has no "value" member. */
const valueOf = (op: RawOperation): JsonValue | undefined => op["value"];

// --- equality as lazyNode.equal sees it ----------------------------------------------------------

function lazyEqual(documentValue: JsonValue, testValue: JsonValue): boolean {
  if (isJsonObject(documentValue)) {
    if (!isJsonObject(testValue)) return false;
    for (const [key, item] of Object.entries(documentValue)) {
      if (!Object.hasOwn(testValue, key)) return false;
      const other = testValue[key] ?? null;
      if (item === null && other === null) continue;
      // The library dereferences a nil node here (a panic); a mismatch is the honest answer.
      if (item === null || other === null) return false;
      if (!lazyEqual(item, other)) return false;
    }
    return true;
  }
  if (Array.isArray(documentValue)) {
    if (!Array.isArray(testValue) || testValue.length !== documentValue.length) return false;
    return documentValue.every((item, index) => {
      const other = testValue[index] ?? null;
      if (item === null || other === null) return item === other;
      return lazyEqual(item, other);
    });
  }
  // Scalars compare as compacted JSON text.
  return JSON.stringify(documentValue) === JSON.stringify(testValue);
}

// --- the operations ------------------------------------------------------------------------------

interface Document {
  root: Container;
}

function applyAdd(doc: Document, op: RawOperation): void {
  const path = pathOf(op, "add operation failed to decode path", true);
  const target = findObject(doc.root, path) ?? fail(wrap(`add operation does not apply: doc is missing path: "${path}"`, MISSING));
  within(`error in add for path: '${path}'`, () => add(target.container, target.key, cloneJson(valueOf(op) ?? null)));
}

function applyRemove(doc: Document, op: RawOperation): void {
  const path = pathOf(op, "remove operation failed to decode path", true);
  const target = findObject(doc.root, path) ?? fail(wrap(`remove operation does not apply: doc is missing path: "${path}"`, MISSING));
  within(`error in remove for path: '${path}'`, () => remove(target.container, target.key));
}

function applyReplace(doc: Document, op: RawOperation): void {
  const path = pathOf(op, "replace operation failed to decode path", false);
  const target = findObject(doc.root, path) ?? fail(wrap(`replace operation does not apply: doc is missing path: ${path}`, MISSING));
  try {
    get(target.container, target.key);
  } catch (error) {
    if (error instanceof OperationFailure) fail(wrap(`replace operation does not apply: doc is missing key: ${path}`, MISSING));
    throw error;
  }
  within(`error in remove for path: '${path}'`, () => set(target.container, target.key, cloneJson(valueOf(op) ?? null)));
}

function applyMove(doc: Document, op: RawOperation): void {
  const from = fromOf(op, "move operation failed to decode from");
  const source = findObject(doc.root, from) ?? fail(wrap(`move operation does not apply: doc is missing from path: ${from}`, MISSING));
  const value = within(`error in move for path: '${source.key}'`, () => get(source.container, source.key));
  within(`error in move for path: '${source.key}'`, () => remove(source.container, source.key));
  const path = pathOf(op, "move operation failed to decode path", false);
  const target = findObject(doc.root, path) ?? fail(wrap(`move operation does not apply: doc is missing destination path: ${path}`, MISSING));
  within(`error in move for path: '${path}'`, () => add(target.container, target.key, value ?? null));
}

function applyCopy(doc: Document, op: RawOperation): void {
  const from = fromOf(op, "copy operation failed to decode from");
  const source = findObject(doc.root, from) ?? fail(wrap(`copy operation does not apply: doc is missing from path: ${from}`, MISSING));
  const value = within(`error in copy for from: '${from}'`, () => get(source.container, source.key));
  const path = pathOf(op, "copy operation failed to decode path", true);
  const target = findObject(doc.root, path) ?? fail(wrap(`copy operation does not apply: doc is missing destination path: ${path}`, MISSING));
  within("error while adding value during copy", () => add(target.container, target.key, cloneJson(value ?? null)));
}

function applyTest(doc: Document, op: RawOperation): void {
  const path = pathOf(op, "test operation failed to decode path", false);
  const target = findObject(doc.root, path) ?? fail(wrap(`test operation does not apply: is missing path: ${path}`, MISSING));
  const actual = within(`error in test for path: '${path}'`, () => get(target.container, target.key));
  const expected = valueOf(op);
  const failed = () => fail(wrap(`testing value ${path} failed`, TEST_FAILED));
  if (actual === undefined || actual === null) {
    if (expected === null) return;
    // json-patch dereferences the missing value node here and panics; the apiserver's panic
    // handler answers 500.
    if (expected === undefined) throw unknownServerError("runtime error: invalid memory address or nil pointer dereference");
    failed();
    return;
  }
  if (expected === undefined || expected === null) {
    failed();
    return;
  }
  if (!lazyEqual(actual, expected)) failed();
}

const OPERATIONS: Readonly<Record<string, (doc: Document, op: RawOperation) => void>> = {
  add: applyAdd,
  remove: applyRemove,
  replace: applyReplace,
  move: applyMove,
  copy: applyCopy,
  test: applyTest,
};

function decodeOperations(operations: unknown): RawOperation[] {
  const value = toJsonValue(operations);
  if (value === null) return [];
  if (!Array.isArray(value)) throw badRequest(`json: cannot unmarshal ${jsonKind(value)} into Go value of type jsonpatch.Patch`);
  return value.map((item) => {
    if (item === null) return {};
    if (!isJsonObject(item)) throw badRequest(`json: cannot unmarshal ${jsonKind(item)} into Go value of type jsonpatch.Operation`);
    return item;
  });
}

/**
 * Applies an RFC 6902 JSON patch to a document and returns the result; neither argument is
 * changed. `operations` is the decoded request body.
 */
export function applyJsonPatch(target: JsonValue, operations: unknown): JsonValue {
  const ops = decodeOperations(operations);
  if (ops.length > MAX_JSON_PATCH_OPERATIONS) {
    throw requestEntityTooLarge(`The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${ops.length}`);
  }
  if (!Array.isArray(target) && !isJsonObject(target)) throw unprocessable(`json: cannot unmarshal ${jsonKind(target)} into Go value of type jsonpatch.partialDoc`);
  const doc: Document = { root: cloneJson(target) };
  for (const op of ops) {
    const kind = kindOf(op);
    const apply = Object.hasOwn(OPERATIONS, kind) ? OPERATIONS[kind] : undefined;
    try {
      if (!apply) fail(`Unexpected kind: ${kind}`);
      else apply(doc, op);
    } catch (error) {
      if (error instanceof OperationFailure) throw unprocessable(error.message);
      throw error;
    }
  }
  return doc.root;
}
