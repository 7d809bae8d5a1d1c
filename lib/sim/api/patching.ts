import type { KubeObject } from "../objects.ts";
import { StatusError } from "../status-error.ts";
import { parseJson } from "./http-io.ts";
import {
  applyJsonPatch, applyMergePatch, applyStrategicMergePatch, CUSTOM_RESOURCE_PATCH_TYPES, PatchError, strategicMergePatchSchemaFor, toJsonValue,
  unsupportedMediaType, type JsonObject,
} from "./patch/index.ts";
import type { ResourceDefinition } from "./resources.ts";

// PATCH: pick the patch type from the Content-Type header, as the API server does, and turn
// patch failures into the Status a real server answers with.

const BUILT_IN_PATCH_TYPES = ["application/json-patch+json", "application/merge-patch+json", "application/strategic-merge-patch+json", "application/apply-patch+yaml"];

function asStatusError(error: unknown): unknown {
  return error instanceof PatchError ? new StatusError(error.toStatus()) : error;
}

/** The object after `bodyText` is applied to `current` (as the client's version shows it). */
export function applyPatch(definition: ResourceDefinition, contentType: string, current: KubeObject, bodyText: string): KubeObject {
  const accepted = definition.strategicMerge ? BUILT_IN_PATCH_TYPES : CUSTOM_RESOURCE_PATCH_TYPES;
  if (contentType === "application/apply-patch+yaml") {
    // Server-side apply needs managedFields and field ownership, which the simulation does not keep.
    throw StatusError.of(415, "UnsupportedMediaType", "the simulated cluster does not implement server-side apply (application/apply-patch+yaml); use a JSON merge patch or a JSON patch");
  }
  if (!accepted.includes(contentType)) throw asStatusError(unsupportedMediaType(accepted));
  const patch = parseJson(bodyText);
  try {
    const target = toJsonValue(current);
    switch (contentType) {
      case "application/merge-patch+json":
        return applyMergePatch(target, patch) as unknown as KubeObject;
      case "application/json-patch+json":
        return applyJsonPatch(target, patch) as unknown as KubeObject;
      default: {
        const schema = strategicMergePatchSchemaFor(String(current.apiVersion), String(current.kind));
        if (!schema) throw unsupportedMediaType(accepted);
        return applyStrategicMergePatch(target as JsonObject, patch, schema) as unknown as KubeObject;
      }
    }
  } catch (error) {
    throw asStatusError(error);
  }
}
