// application/merge-patch+json: RFC 7386 JSON merge patch, as kube-apiserver applies it
// (evanphx/json-patch v4 MergePatch, called from the apiserver's jsonPatcher).
//
// - a patch member set to null removes the member;
// - an object member merges recursively; anything else (arrays included) replaces;
// - nulls inside newly added objects are dropped (pruneNulls), nulls inside arrays are kept;
// - a patch that is null or a scalar is "Invalid JSON Patch" (400 BadRequest);
// - a patch that is an array replaces the whole document (the server then fails to decode it).

import { badRequest, unknownServerError } from "./errors.ts";
import { cloneJson, isJsonObject, setMember, toJsonValue, type JsonObject, type JsonValue } from "./json-value.ts";

/** jsonpatch.ErrBadJSONPatch; the apiserver answers it with 400 BadRequest. */
export const INVALID_JSON_PATCH = "Invalid JSON Patch";

function pruneNulls(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return pruneArrayNulls(value);
  if (isJsonObject(value)) return pruneObjectNulls(value);
  return value;
}

function pruneObjectNulls(object: JsonObject): JsonObject {
  for (const [key, item] of Object.entries(object)) {
    if (item === null) delete object[key];
    else setMember(object, key, pruneNulls(item));
  }
  return object;
}

function pruneArrayNulls(array: JsonValue[]): JsonValue[] {
  return array.map((item) => (item === null ? null : pruneNulls(item)));
}

function mergeValue(current: JsonValue, patch: JsonValue): JsonValue {
  if (!isJsonObject(current)) return pruneNulls(patch);
  if (!isJsonObject(patch)) return patch;
  mergeObjects(current, patch);
  return current;
}

function mergeObjects(doc: JsonObject, patch: JsonObject): void {
  for (const [key, item] of Object.entries(patch)) {
    if (item === null) {
      delete doc[key];
      continue;
    }
    const current = doc[key];
    setMember(doc, key, current === undefined || current === null ? pruneNulls(item) : mergeValue(current, item));
  }
}

/**
 * Applies a JSON merge patch to a document and returns the result; neither argument is changed.
 * Throws PatchError 400 "Invalid JSON Patch" for a null or scalar patch.
 */
export function applyMergePatch(target: JsonValue, patch: unknown): JsonValue {
  const patchValue = toJsonValue(patch);
  if (patchValue === null) throw badRequest(INVALID_JSON_PATCH);
  if (Array.isArray(patchValue)) return pruneArrayNulls(patchValue);
  if (!isJsonObject(patchValue)) throw badRequest(INVALID_JSON_PATCH);
  // jsonpatch.ErrBadJSONDoc is not an APIStatus: the apiserver would answer 500. The documents it
  // patches are always objects, so this only guards against misuse.
  if (target === null) throw unknownServerError("Invalid JSON Document");
  if (!isJsonObject(target)) return pruneObjectNulls(patchValue);
  const doc = cloneJson(target);
  mergeObjects(doc, patchValue);
  return doc;
}
