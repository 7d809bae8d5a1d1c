import type { StoredObject } from "../objects.ts";
import { StatusError } from "../status-error.ts";
import { parseFieldSelectorFor, parseLabelSelector, selectableFieldsFor, SelectorError } from "./selectors/index.ts";
import { groupVersion, type ResourceDefinition } from "./resources.ts";

// ?labelSelector= and ?fieldSelector= of a list, watch or deletecollection, compiled once per
// request into one predicate. A malformed selector is the client's 400, as from a real server.

export function compileSelectors(definition: ResourceDefinition, query: URLSearchParams): (object: StoredObject) => boolean {
  try {
    const labels = parseLabelSelector(query.get("labelSelector") ?? "");
    const fields = parseFieldSelectorFor(
      query.get("fieldSelector") ?? "",
      selectableFieldsFor(groupVersion(definition.group, definition.storageVersion), definition.kind, { namespaced: definition.namespaced }),
    );
    if (labels.empty() && fields.empty()) return () => true;
    return (object) => labels.matches(object.metadata.labels ?? {}) && fields.matches(object);
  } catch (error) {
    if (error instanceof SelectorError) throw new StatusError(error.toStatus());
    throw error;
  }
}
