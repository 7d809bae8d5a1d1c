// application/strategic-merge-patch+json, ported from the apply half of
// k8s.io/apimachinery/pkg/util/strategicpatch (StrategicMergeMapPatch with MergeParallelList and
// IgnoreUnmatchedNulls, as the apiserver calls it), driven by the patch metadata table in
// strategic-schema.ts instead of Go struct tags.
//
// Semantics kept from the real code:
// - null deletes a key; nulls inside a newly added subtree are dropped;
// - maps merge key by key; a list with patchStrategy merge and a patchMergeKey merges items by
//   that key (new items are placed before the live items that the patch does not mention, as the
//   real ordering code does); a merging list of primitives is a set union; any other list, and
//   any scalar, is replaced;
// - `$patch: replace` on a map replaces it, `$patch: delete` empties it; in a merging list an item
//   `{<key>: v, $patch: delete}` deletes the items with that key, `{$patch: replace}` replaces the
//   list with the patch's other items; `$patch: merge` on a map is refused ("unknown patch type")
//   and in a list ("merging lists cannot yet be specified in the patch"), exactly as the real code;
// - `$deleteFromPrimitiveList/<field>` removes values from a primitive list;
// - `$setElementOrder/<field>` reorders a list (and checks it against the patch list);
// - `$retainKeys` clears the keys it does not name.
//
// Errors answer as the apiserver does: the mergepatch "bad format" errors are 400 BadRequest,
// lists of lists 422, everything else (e.g. an item without its merge key) is not an APIStatus
// and reaches the client as a 500 whose message is the error text.

import { badRequest, unknownServerError, unprocessable } from "./errors.ts";
import { goString, goTypeName, goValue } from "./go-format.ts";
import { cloneJson, isJsonObject, jsonKind, setMember, toJsonValue, type JsonObject, type JsonValue } from "./json-value.ts";
import { UNTYPED, type PatchFieldMeta, type PatchSchema } from "./strategic-schema.ts";

const DIRECTIVE_MARKER = "$patch";
const DELETE_DIRECTIVE = "delete";
const REPLACE_DIRECTIVE = "replace";
const MERGE_DIRECTIVE = "merge";
const DELETE_FROM_PRIMITIVE_LIST_PREFIX = "$deleteFromPrimitiveList";
const RETAIN_KEYS_DIRECTIVE = "$retainKeys";
const SET_ELEMENT_ORDER_PREFIX = "$setElementOrder";

type ErrorClass = "badRequest" | "invalid" | "unknown";

class MergeFailure extends Error {
  constructor(
    message: string,
    readonly errorClass: ErrorClass = "unknown",
  ) {
    super(message);
  }
}

// mergepatch's sentinel errors and constructors.
const errBadPatchFormatForPrimitiveList = () => new MergeFailure("invalid patch format of primitive list", "badRequest");
const errBadPatchFormatForRetainKeys = () => new MergeFailure("invalid patch format of retainKeys", "badRequest");
const errBadPatchFormatForSetElementOrderList = () => new MergeFailure("invalid patch format of setElementOrder list", "badRequest");
const errNoListOfLists = () => new MergeFailure("lists of lists are not supported", "invalid");
const errNoMergeKey = (map: JsonObject, key: string) => new MergeFailure(`map: ${goValue(map)} does not contain declared merge key: ${key}`);
const errBadArgType = (expected: string, actual: JsonValue | undefined) => new MergeFailure(`expected a ${expected}, but received a ${goTypeName(actual)}`);
const errBadPatchType = (directive: JsonValue | undefined, map: JsonObject) => new MergeFailure(`unknown patch type: ${goString(directive)} in map: ${goValue(map)}`);

const SLICE = "[]interface {}";
const MAP = "map[string]interface {}";

/** reflect kinds, as the merge code distinguishes values. */
type Kind = "map" | "slice" | "string" | "number" | "bool" | "nil";

function kindOf(value: JsonValue | undefined): Kind {
  switch (jsonKind(value)) {
    case "object":
      return "map";
    case "array":
      return "slice";
    case "string":
      return "string";
    case "number":
      return "number";
    case "bool":
      return "bool";
    default:
      return "nil";
  }
}

/** Go's == on two interface values holding decoded JSON (maps and slices never compare equal here). */
function goEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  const left = a ?? null;
  const right = b ?? null;
  if (typeof left === "object" && left !== null) return false;
  if (typeof right === "object" && right !== null) return false;
  if (typeof left === "number" && typeof right === "number") {
    // int64 and float64 are different dynamic types.
    return Number.isInteger(left) === Number.isInteger(right) && left === right;
  }
  return left === right;
}

function lookup(schema: PatchSchema, key: string): PatchFieldMeta {
  return Object.hasOwn(schema.fields, key) ? (schema.fields[key] ?? {}) : {};
}

// --- helpers of patch.go -------------------------------------------------------------------------

function handleDirectiveInMergeMap(directive: JsonValue | undefined, patch: JsonObject): JsonObject {
  if (directive === REPLACE_DIRECTIVE) {
    delete patch[DIRECTIVE_MARKER];
    return patch;
  }
  if (directive === DELETE_DIRECTIVE) return {};
  throw errBadPatchType(directive, patch);
}

function containsDirectiveMarker(item: JsonValue | undefined): boolean {
  return isJsonObject(item) && Object.hasOwn(item, DIRECTIVE_MARKER);
}

function mergeKeyValueEqual(left: JsonValue | undefined, right: JsonValue | undefined, mergeKey: string): boolean {
  if (mergeKey === "") return goEqual(left, right);
  if (!isJsonObject(left)) throw errBadArgType(MAP, left);
  if (!isJsonObject(right)) throw errBadArgType(MAP, right);
  if (!Object.hasOwn(left, mergeKey)) throw errNoMergeKey(left, mergeKey);
  if (!Object.hasOwn(right, mergeKey)) throw errNoMergeKey(right, mergeKey);
  return goEqual(left[mergeKey], right[mergeKey]);
}

/** Trims "<prefix>/" off a directive key. */
function extractKey(key: string, prefix: string): string {
  const slash = key.indexOf("/");
  if (slash < 0 || key.slice(0, slash) !== prefix) {
    if (prefix === DELETE_FROM_PRIMITIVE_LIST_PREFIX) throw errBadPatchFormatForPrimitiveList();
    if (prefix === SET_ELEMENT_ORDER_PREFIX) throw errBadPatchFormatForSetElementOrderList();
    throw new MergeFailure(`fail to find unknown prefix ${JSON.stringify(prefix)} in ${key}`);
  }
  return key.slice(slash + 1);
}

function extractToDeleteItems(list: JsonValue[]): { nonDelete: JsonValue[]; toDelete: JsonValue[] } {
  const nonDelete: JsonValue[] = [];
  const toDelete: JsonValue[] = [];
  for (const item of list) {
    if (!isJsonObject(item)) throw errBadArgType(MAP, item);
    if (Object.hasOwn(item, DIRECTIVE_MARKER) && item[DIRECTIVE_MARKER] === DELETE_DIRECTIVE) toDelete.push(item);
    else nonDelete.push(item);
  }
  return { nonDelete, toDelete };
}

/** The relative order of the patch list must agree with the $setElementOrder list. */
function validatePatchWithSetOrderList(patchList: JsonValue[], setOrderList: JsonValue[], mergeKey: string): void {
  if (setOrderList.length === 0 || patchList.length === 0) return;
  const nonDeleteList = mergeKey !== "" ? extractToDeleteItems(patchList).nonDelete : patchList;
  let patchIndex = 0;
  let setOrderIndex = 0;
  while (patchIndex < nonDeleteList.length && setOrderIndex < setOrderList.length) {
    if (containsDirectiveMarker(nonDeleteList[patchIndex])) {
      patchIndex++;
      continue;
    }
    if (mergeKeyValueEqual(nonDeleteList[patchIndex], setOrderList[setOrderIndex], mergeKey)) patchIndex++;
    setOrderIndex++;
  }
  if (patchIndex < nonDeleteList.length && setOrderIndex >= setOrderList.length) {
    throw new MergeFailure(`the order in patch list:\n${goValue(patchList)}\n doesn't match ${SET_ELEMENT_ORDER_PREFIX} list:\n${goValue(setOrderList)}`);
  }
}

function applyRetainKeysDirective(original: JsonObject, patch: JsonObject): void {
  if (!Object.hasOwn(patch, RETAIN_KEYS_DIRECTIVE)) return;
  const retainKeys = patch[RETAIN_KEYS_DIRECTIVE];
  delete patch[RETAIN_KEYS_DIRECTIVE];
  if (!Array.isArray(retainKeys)) throw errBadPatchFormatForRetainKeys();
  const retained = new Set(retainKeys.filter((key): key is string => typeof key === "string"));
  for (const [key, value] of Object.entries(patch)) {
    if (value === null || key.startsWith(DELETE_FROM_PRIMITIVE_LIST_PREFIX) || key.startsWith(SET_ELEMENT_ORDER_PREFIX)) continue;
    if (!retained.has(key)) throw errBadPatchFormatForRetainKeys();
  }
  for (const key of Object.keys(original)) {
    if (!retained.has(key)) delete original[key];
  }
}

function partitionPrimitivesByPresentInList(list: JsonValue[], partitionBy: JsonValue[]): { patch: JsonValue[]; serverOnly: JsonValue[] } {
  const patch: JsonValue[] = [];
  const serverOnly: JsonValue[] = [];
  for (const item of list) {
    if (partitionBy.some((other) => goEqual(other, item))) patch.push(item);
    else serverOnly.push(item);
  }
  return { patch, serverOnly };
}

function findMapInSliceBasedOnKeyValue(list: JsonValue[], key: string, value: JsonValue | undefined): { map: JsonObject; index: number } | undefined {
  for (const [index, item] of list.entries()) {
    if (!isJsonObject(item)) throw new MergeFailure(`value for key ${index} is not a map`);
    if (Object.hasOwn(item, key) && goEqual(item[key], value)) return { map: item, index };
  }
  return undefined;
}

function partitionMapsByPresentInList(list: JsonValue[], partitionBy: JsonValue[], mergeKey: string): { patch: JsonValue[]; serverOnly: JsonValue[] } {
  const patch: JsonValue[] = [];
  const serverOnly: JsonValue[] = [];
  for (const item of list) {
    if (!isJsonObject(item)) throw errBadArgType(MAP, item);
    if (!Object.hasOwn(item, mergeKey)) throw errNoMergeKey(item, mergeKey);
    if (findMapInSliceBasedOnKeyValue(partitionBy, mergeKey, item[mergeKey])) patch.push(item);
    else serverOnly.push(item);
  }
  return { patch, serverOnly };
}

/** Drops items and values carrying `$patch` from a subtree that is added as it is. */
function removeDirectives(value: JsonValue): { value: JsonValue; keep: boolean } {
  if (isJsonObject(value)) {
    if (Object.hasOwn(value, DIRECTIVE_MARKER)) return { value: null, keep: false };
    for (const [key, item] of Object.entries(value)) {
      const result = removeDirectives(item);
      if (result.keep) setMember(value, key, result.value);
      else delete value[key];
    }
    return { value, keep: true };
  }
  if (Array.isArray(value)) {
    const kept: JsonValue[] = [];
    for (const item of value) {
      const result = removeDirectives(item);
      if (result.keep) kept.push(result.value);
    }
    return { value: kept, keep: true };
  }
  return { value, keep: true };
}

function discardNullValuesFromPatch(value: JsonValue): void {
  if (isJsonObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      if (item === null) delete value[key];
      else discardNullValuesFromPatch(item);
    }
  } else if (Array.isArray(value)) {
    for (const item of value) discardNullValuesFromPatch(item);
  }
}

/** The element kind shared by the items of the given lists. */
function sliceElementType(...lists: JsonValue[][]): Kind {
  let previous: Kind | undefined;
  for (const list of lists) {
    for (const item of list) {
      const current = kindOf(item);
      if (previous === undefined) {
        previous = current;
        if (previous === "slice") throw errNoListOfLists();
      } else if (previous !== current) {
        throw new MergeFailure(`list element types are not identical: ${goValue(lists)}`);
      }
    }
  }
  if (previous === undefined) throw new MergeFailure("no elements in any of the given slices");
  return previous;
}

/** Go's "clever" in-place de-duplication (it moves the last item into a duplicate's slot). */
function deduplicateScalars(list: JsonValue[]): JsonValue[] {
  const items = [...list];
  let length = items.length - 1;
  for (let i = 0; i < length; i++) {
    for (let j = i + 1; j <= length; j++) {
      if (goEqual(items[i], items[j])) {
        items[j] = items[length] ?? null;
        items.length = length;
        length--;
        j--;
      }
    }
  }
  return items;
}

function deleteFromSlice(current: JsonValue[], toDelete: JsonValue[]): JsonValue[] {
  return current.filter((item) => !toDelete.some((other) => goEqual(other, item)));
}

function indexIn(list: JsonValue[], value: JsonValue | undefined, mergeKey: string, kind: Kind): number {
  const key = (item: JsonValue | undefined): JsonValue | undefined => (kind === "map" ? (isJsonObject(item) ? item[mergeKey] : undefined) : item);
  const wanted = key(value);
  return list.findIndex((item) => goEqual(key(item), wanted));
}

function validateMergeKeyInLists(mergeKey: string, ...lists: JsonValue[][]): void {
  for (const list of lists) {
    for (const item of list) {
      if (!isJsonObject(item)) throw errBadArgType(MAP, item);
      if (!Object.hasOwn(item, mergeKey)) throw errNoMergeKey(item, mergeKey);
    }
  }
}

/** sort.SliceStable with the real comparator (items the order list lacks sort as "less"). */
function normalizeSliceOrder(toSort: JsonValue[], order: JsonValue[], mergeKey: string, kind: Kind): JsonValue[] {
  let items = [...toSort];
  let toDelete: JsonValue[] = [];
  if (kind === "map") {
    validateMergeKeyInLists(mergeKey, items, order);
    ({ nonDelete: items, toDelete } = extractToDeleteItems(items));
  }
  const less = (a: JsonValue, b: JsonValue): boolean => {
    const ia = indexIn(order, a, mergeKey, kind);
    if (ia >= 0) {
      const ib = indexIn(order, b, mergeKey, kind);
      if (ib >= 0) return ia < ib;
    }
    return true;
  };
  // Insertion sort: stable, and what Go's stable sort does for the short lists patched here.
  for (let i = 1; i < items.length; i++) {
    for (let j = i; j > 0 && less(items[j] ?? null, items[j - 1] ?? null); j--) {
      const swap = items[j] ?? null;
      items[j] = items[j - 1] ?? null;
      items[j - 1] = swap;
    }
  }
  return [...items, ...toDelete];
}

/** Interleaves server-only items (left) into the patch items (right), by the live order. */
function mergeSortedSlice(left: JsonValue[], right: JsonValue[], serverOrder: JsonValue[], mergeKey: string, kind: Kind): JsonValue[] {
  const out: JsonValue[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length && j < right.length) {
    const li = indexIn(serverOrder, left[i], mergeKey, kind);
    const ri = indexIn(serverOrder, right[j], mergeKey, kind);
    if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++] ?? null);
    else out.push(right[j++] ?? null);
  }
  return [...out, ...left.slice(i), ...right.slice(j)];
}

function normalizeElementOrder(patch: JsonValue[], serverOnly: JsonValue[], patchOrder: JsonValue[], serverOrder: JsonValue[], mergeKey: string, kind: Kind): JsonValue[] {
  const sortedPatch = normalizeSliceOrder(patch, patchOrder, mergeKey, kind);
  const sortedServerOnly = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind);
  return mergeSortedSlice(sortedServerOnly, sortedPatch, serverOrder, mergeKey, kind);
}

// --- merging -------------------------------------------------------------------------------------

function mergeSliceWithSpecialElements(original: JsonValue[], patch: JsonValue[], mergeKey: string): { original: JsonValue[]; patch: JsonValue[] } {
  let remaining = original;
  const plain: JsonValue[] = [];
  let replace = false;
  for (const item of patch) {
    const map = item as JsonObject;
    if (!Object.hasOwn(map, DIRECTIVE_MARKER)) {
      plain.push(item);
      continue;
    }
    const directive = map[DIRECTIVE_MARKER];
    if (directive === DELETE_DIRECTIVE) {
      if (!Object.hasOwn(map, mergeKey)) throw errNoMergeKey(map, mergeKey);
      const value = map[mergeKey];
      for (let found = findMapInSliceBasedOnKeyValue(remaining, mergeKey, value); found; found = findMapInSliceBasedOnKeyValue(remaining, mergeKey, value)) {
        remaining = [...remaining.slice(0, found.index), ...remaining.slice(found.index + 1)];
      }
    } else if (directive === REPLACE_DIRECTIVE) {
      replace = true;
    } else if (directive === MERGE_DIRECTIVE) {
      throw new MergeFailure("merging lists cannot yet be specified in the patch");
    } else {
      throw errBadPatchType(directive, map);
    }
  }
  return replace ? { original: plain, patch: [] } : { original: remaining, patch: plain };
}

function mergeSliceWithoutSpecialElements(original: JsonValue[], patch: JsonValue[], mergeKey: string, schema: PatchSchema): JsonValue[] {
  const merged = [...original];
  for (const item of patch) {
    const map = item as JsonObject;
    if (!Object.hasOwn(map, mergeKey)) throw errNoMergeKey(map, mergeKey);
    const found = findMapInSliceBasedOnKeyValue(merged, mergeKey, map[mergeKey]);
    if (found) {
      merged[found.index] = mergeMap(found.map, map, schema);
    } else {
      // Appended as sent. (The typed decode that follows on a real server turns the nulls of a
      // new item into absent fields; drop them here so the stored object reads the same.)
      discardNullValuesFromPatch(map);
      merged.push(map);
    }
  }
  return merged;
}

function mergeSlice(original: JsonValue[], patch: JsonValue[], schema: PatchSchema, mergeKey: string, isDeleteList: boolean): JsonValue[] {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = sliceElementType(original, patch);
  let merged: JsonValue[];
  let serverOrder = original;
  let patchOrder = patch;
  if (kind !== "map") {
    if (isDeleteList) return deleteFromSlice(original, patch);
    merged = deduplicateScalars([...original, ...patch]);
  } else {
    if (mergeKey === "") throw new MergeFailure(`cannot merge lists without merge key for ${schema.name}`);
    const special = mergeSliceWithSpecialElements(original, patch, mergeKey);
    serverOrder = special.original;
    patchOrder = special.patch;
    merged = mergeSliceWithoutSpecialElements(special.original, special.patch, mergeKey, schema);
  }
  const { patch: patchItems, serverOnly } = mergeKey === "" ? partitionPrimitivesByPresentInList(merged, patchOrder) : partitionMapsByPresentInList(merged, patchOrder, mergeKey);
  return normalizeElementOrder(patchItems, serverOnly, patchOrder, serverOrder, mergeKey, kind);
}

function mergeSliceHandler(original: JsonValue[], patch: JsonValue[], meta: PatchFieldMeta, isDeleteList: boolean): JsonValue[] {
  // A delete list works whatever the field's strategy.
  if (meta.patchStrategy === MERGE_DIRECTIVE || isDeleteList) {
    return mergeSlice(original, patch, meta.schema ?? UNTYPED, meta.patchMergeKey ?? "", isDeleteList);
  }
  return patch;
}

/** $setElementOrder/<field>: merges that list now, in the order the directive gives. */
function mergePatchIntoOriginal(original: JsonObject, patch: JsonObject, schema: PatchSchema): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(SET_ELEMENT_ORDER_PREFIX)) continue;
    const setElementOrder = patch[key];
    delete patch[key];
    if (!Array.isArray(setElementOrder)) throw errBadArgType(SLICE, setElementOrder);
    const originalKey = extractKey(key, SET_ELEMENT_ORDER_PREFIX);
    const foundOriginal = Object.hasOwn(original, originalKey);
    const foundPatch = Object.hasOwn(patch, originalKey);
    const originalList = original[originalKey];
    const patchList = patch[originalKey];
    if (foundOriginal && !Array.isArray(originalList)) throw errBadArgType(SLICE, originalList);
    if (foundPatch && !Array.isArray(patchList)) throw errBadArgType(SLICE, patchList);
    const originalFieldValue = Array.isArray(originalList) ? originalList : [];
    const patchFieldValue = Array.isArray(patchList) ? patchList : [];
    const meta = lookup(schema, originalKey);
    const mergeKey = meta.patchMergeKey ?? "";
    validatePatchWithSetOrderList(patchFieldValue, setElementOrder, mergeKey);

    let merged: JsonValue[];
    if (foundOriginal && !foundPatch) merged = originalFieldValue;
    else if (!foundOriginal && foundPatch) merged = removeDirectives(patchFieldValue).value as JsonValue[];
    else if (foundOriginal && foundPatch) merged = mergeSliceHandler(originalFieldValue, patchFieldValue, meta, false);
    else continue;

    const { patch: patchItems, serverOnly } =
      mergeKey === "" ? partitionPrimitivesByPresentInList(merged, setElementOrder) : partitionMapsByPresentInList(merged, setElementOrder, mergeKey);
    const kind = sliceElementType(originalFieldValue, patchFieldValue);
    setMember(original, originalKey, normalizeElementOrder(patchItems, serverOnly, setElementOrder, originalFieldValue, mergeKey, kind));
    delete patch[originalKey];
  }
}

/** Takes a patch value as the new value of a key (it was absent, or of another type). */
function takePatchValue(original: JsonObject, key: string, patchValue: JsonValue): void {
  discardNullValuesFromPatch(patchValue);
  const { value, keep } = removeDirectives(patchValue);
  if (keep) setMember(original, key, value);
  else delete original[key];
}

function mergeMap(originalIn: JsonObject | null, patch: JsonObject, schema: PatchSchema): JsonObject {
  if (Object.hasOwn(patch, DIRECTIVE_MARKER)) return handleDirectiveInMergeMap(patch[DIRECTIVE_MARKER], patch);
  const original = originalIn ?? {};
  applyRetainKeysDirective(original, patch);
  mergePatchIntoOriginal(original, patch, schema);

  for (const [patchKey, patchValue] of Object.entries(patch)) {
    let key = patchKey;
    let isDeleteList = false;
    if (patchKey.startsWith(DELETE_FROM_PRIMITIVE_LIST_PREFIX)) {
      key = extractKey(patchKey, DELETE_FROM_PRIMITIVE_LIST_PREFIX);
      isDeleteList = true;
    }
    if (patchValue === null) {
      delete original[key];
      continue;
    }
    if (!Object.hasOwn(original, key)) {
      if (!isDeleteList) takePatchValue(original, key, patchValue);
      continue;
    }
    const current = original[key] ?? null;
    const kind = kindOf(current);
    if (kind !== kindOf(patchValue) || (kind === "number" && Number.isInteger(current) !== Number.isInteger(patchValue))) {
      if (!isDeleteList) takePatchValue(original, key, patchValue);
      continue;
    }
    const meta = lookup(schema, key);
    if (kind === "map") {
      setMember(original, key, meta.patchStrategy === REPLACE_DIRECTIVE ? patchValue : mergeMap(current as JsonObject, patchValue as JsonObject, meta.schema ?? UNTYPED));
    } else if (kind === "slice") {
      setMember(original, key, mergeSliceHandler(current as JsonValue[], patchValue as JsonValue[], meta, isDeleteList));
    } else {
      setMember(original, key, patchValue);
    }
  }
  return original;
}

/** Directive keys can never be fields; a real server drops any left over when it decodes into the typed object. */
function stripLeftoverDirectives(value: JsonValue): void {
  if (Array.isArray(value)) {
    for (const item of value) stripLeftoverDirectives(item);
    return;
  }
  if (!isJsonObject(value)) return;
  for (const [key, item] of Object.entries(value)) {
    if (key === DIRECTIVE_MARKER || key === RETAIN_KEYS_DIRECTIVE || key.startsWith(`${SET_ELEMENT_ORDER_PREFIX}/`) || key.startsWith(`${DELETE_FROM_PRIMITIVE_LIST_PREFIX}/`)) {
      delete value[key];
    } else {
      stripLeftoverDirectives(item);
    }
  }
}

function toPatchError(failure: MergeFailure) {
  switch (failure.errorClass) {
    case "badRequest":
      return badRequest(failure.message);
    case "invalid":
      return unprocessable(failure.message);
    default:
      return unknownServerError(failure.message);
  }
}

/**
 * Applies a strategic merge patch to an object with the given patch metadata (see
 * `strategicMergePatchSchemaFor`) and returns the result; neither argument is changed.
 * `patch` is the decoded request body; it must be a JSON object (null patches nothing).
 */
export function applyStrategicMergePatch(target: JsonObject, patch: unknown, schema: PatchSchema): JsonObject {
  const patchValue = toJsonValue(patch);
  if (patchValue === null) return cloneJson(target);
  if (!isJsonObject(patchValue)) throw badRequest(`json: cannot unmarshal ${jsonKind(patchValue)} into Go value of type map[string]interface {}`);
  try {
    const result = mergeMap(cloneJson(target), patchValue, schema);
    stripLeftoverDirectives(result);
    return result;
  } catch (error) {
    if (error instanceof MergeFailure) throw toPatchError(error);
    throw error;
  }
}
