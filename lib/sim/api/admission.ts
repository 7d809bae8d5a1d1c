import { refs } from "../k8s-objects.ts";
import type { KubeObject, StoredObject } from "../objects.ts";
import { StatusError } from "../status-error.ts";
import type { ObjectStore } from "../store/object-store.ts";
import { addClaimProtection } from "../controllers/claim-protection.ts";
import { admitClaimResize } from "../controllers/volume-binder.ts";
import { applyDefaultStorageClass } from "../storage-topology.ts";
import type { ResourceDefinition } from "./resources.ts";
import { admitPodSecurity } from "./pod-security.ts";
import { strategyFor } from "./strategies.ts";

// What happens to an object on its way into storage besides validation: the kind's defaults
// and the admission plugins a real API server runs (DefaultStorageClass, StorageObjectInUse-
// Protection, PersistentVolumeClaimResize, PodSecurity). Objects created by the simulated controllers pass
// through here too, exactly as if they had been POSTed.

export function admitCreate(store: ObjectStore, definition: ResourceDefinition, object: KubeObject): void {
  refuseInTerminatingNamespace(store, definition, object);
  strategyFor(definition).prepareForCreate?.(object);
  if (definition.group === "" && definition.resource === "persistentvolumeclaims") {
    applyDefaultStorageClass(object, store.list(refs.storageClasses));
    addClaimProtection(object);
  }
  if (definition.group === "" && definition.resource === "services") allocateServiceAddresses(object, store.list(refs.services));
  if (definition.group === "" && definition.resource === "pods") admitPodSecurity(object, store.peek(refs.namespaces, undefined, object.metadata.namespace ?? ""));
}

const SERVICE_CIDR_BASE = (10 << 24) | (96 << 16); // 10.96.0.0/12, as kubeadm and kind use
const SERVICE_CIDR_SIZE = 1 << 20;
const NODE_PORTS = { first: 30000, last: 32767 };

const ipOf = (value: number) => [24, 16, 8, 0].map((shift) => (value >>> shift) & 255).join(".");

/** The ClusterIP allocator and the node port allocator: the next free address and port. */
function allocateServiceAddresses(object: KubeObject, services: StoredObject[]): void {
  const spec = object.spec as Record<string, unknown>;
  if (spec.type === "ExternalName") return;
  if (spec.clusterIP === undefined || spec.clusterIP === "") {
    const taken = new Set(services.map((service) => (service.spec as Record<string, unknown> | undefined)?.clusterIP));
    // .0 is the network and .1 the kubernetes Service's.
    for (let offset = 2; offset < SERVICE_CIDR_SIZE - 1; offset++) {
      const candidate = ipOf(SERVICE_CIDR_BASE + offset);
      if (!taken.has(candidate)) {
        spec.clusterIP = candidate;
        break;
      }
    }
  }
  spec.clusterIPs ??= [spec.clusterIP];
  if (spec.type !== "NodePort" && spec.type !== "LoadBalancer") return;
  const used = new Set(
    services.flatMap((service) => (((service.spec as Record<string, unknown> | undefined)?.ports ?? []) as { nodePort?: number }[]).map((port) => port.nodePort)),
  );
  let next = NODE_PORTS.first;
  spec.ports = ((spec.ports ?? []) as Record<string, unknown>[]).map((port) => {
    if (typeof port.nodePort === "number") return port;
    while (used.has(next) && next <= NODE_PORTS.last) next++;
    used.add(next);
    return { ...port, nodePort: next };
  });
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
