// The three patch types kube-apiserver accepts, as pure functions over decoded JSON. The API
// server picks one by Content-Type, refuses other types itself, and maps PatchError to a Status.

export { applyMergePatch, INVALID_JSON_PATCH } from "./merge-patch.ts";
export { applyJsonPatch, MAX_JSON_PATCH_OPERATIONS, type JsonPatchOperation } from "./json-patch.ts";
export { applyStrategicMergePatch } from "./strategic-merge-patch.ts";
export {
  STRATEGIC_MERGE_SCHEMAS,
  strategicMergePatchSchemaFor,
  supportsStrategicMergePatch,
  type PatchFieldMeta,
  type PatchSchema,
} from "./strategic-schema.ts";
export { CUSTOM_RESOURCE_PATCH_TYPES, PatchError, unsupportedMediaType, type PatchErrorReason, type PatchStatus } from "./errors.ts";
export { isJsonObject, jsonEqual, toJsonValue, type JsonObject, type JsonPrimitive, type JsonValue } from "./json-value.ts";
