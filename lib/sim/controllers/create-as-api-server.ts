import { admitCreate } from "../api/admission.ts";
import { resourceFor } from "../api/resources.ts";
import { strategyFor } from "../api/strategies.ts";
import type { KubeObject, StoredObject } from "../objects.ts";
import { StatusError } from "../status-error.ts";
import type { ObjectStore } from "../store/object-store.ts";

/**
 * Creates an object as a controller's POST would: the kind's defaults and admission, then its
 * validation, then storage — so what a simulated controller makes is what the API server would
 * have let it make.
 */
export function createAsApiServer(store: ObjectStore, group: string, resource: string, object: KubeObject): StoredObject {
  const definition = resourceFor(group, resource);
  admitCreate(store, definition, object);
  const causes = strategyFor(definition).validate?.(object) ?? [];
  if (causes.length > 0) throw StatusError.invalid(String(object.kind), group, object.metadata.name ?? object.metadata.generateName ?? "", causes);
  return store.create(definition, object);
}
