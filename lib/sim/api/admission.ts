import { refs } from "../k8s-objects.ts";
import type { KubeObject, StoredObject } from "../objects.ts";
import { StatusError } from "../status-error.ts";
import type { ObjectStore } from "../store/object-store.ts";
import { addClaimProtection } from "../controllers/claim-protection.ts";
import { admitClaimResize } from "../controllers/volume-binder.ts";
import { applyDefaultStorageClass } from "../storage-topology.ts";
import type { ResourceDefinition } from "./resources.ts";
import { strategyFor } from "./strategies.ts";

// What happens to an object on its way into storage besides validation: the kind's defaults
// and the admission plugins a real API server runs (DefaultStorageClass, StorageObjectInUse-
// Protection, PersistentVolumeClaimResize). Objects created by the simulated controllers pass
// through here too, exactly as if they had been POSTed.

export function admitCreate(store: ObjectStore, definition: ResourceDefinition, object: KubeObject): void {
  refuseInTerminatingNamespace(store, definition, object);
  strategyFor(definition).prepareForCreate?.(object);
  if (definition.group === "" && definition.resource === "persistentvolumeclaims") {
    applyDefaultStorageClass(object, store.list(refs.storageClasses));
    addClaimProtection(object);
  }
}

/** NamespaceLifecycle: nothing new in a namespace that is being deleted. */
function refuseInTerminatingNamespace(store: ObjectStore, definition: ResourceDefinition, object: KubeObject): void {
  const namespace = object.metadata.namespace;
  if (!definition.namespaced || !namespace) return;
  if (!store.peek(refs.namespaces, undefined, namespace)?.metadata.deletionTimestamp) return;
  const name = object.metadata.name ?? object.metadata.generateName ?? "";
  throw StatusError.of(403, "Forbidden", `${definition.resource} "${name}" is forbidden: unable to create new content in namespace ${namespace} because it is being terminated`, {
    name,
    kind: definition.resource,
    causes: [{ reason: "NamespaceTerminating", message: `namespace ${namespace} is being terminated`, field: "metadata.namespace" }],
  });
}

/** A refusal of an update by an admission plugin, or null. */
export function admitUpdate(store: ObjectStore, definition: ResourceDefinition, current: StoredObject, next: KubeObject): StatusError | null {
  if (definition.group === "" && definition.resource === "persistentvolumeclaims") {
    return admitClaimResize(current, next, store.list(refs.storageClasses));
  }
  return null;
}
