import { refs } from "../k8s-objects.ts";
import type { KubeObject, StoredObject } from "../objects.ts";
import type { StatusError } from "../status-error.ts";
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
  strategyFor(definition).prepareForCreate?.(object);
  if (definition.group === "" && definition.resource === "persistentvolumeclaims") {
    applyDefaultStorageClass(object, store.list(refs.storageClasses));
    addClaimProtection(object);
  }
}

/** A refusal of an update by an admission plugin, or null. */
export function admitUpdate(store: ObjectStore, definition: ResourceDefinition, current: StoredObject, next: KubeObject): StatusError | null {
  if (definition.group === "" && definition.resource === "persistentvolumeclaims") {
    return admitClaimResize(current, next, store.list(refs.storageClasses));
  }
  return null;
}
