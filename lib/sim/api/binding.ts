import type { Clock } from "../clock.ts";
import { conditions, record, refs, status, timestamp, type Condition } from "../k8s-objects.ts";
import { clone, type StoredObject } from "../objects.ts";
import { StatusError } from "../status-error.ts";
import type { ObjectStore } from "../store/object-store.ts";
import { successStatus, type SuccessStatus } from "./eviction.ts";
import { parseObject } from "./http-io.ts";

// POST /api/v1/namespaces/{ns}/pods/{name}/binding, as BindingREST serves it
// (pkg/registry/core/pod/storage/storage.go): the scheduler's way to set spec.nodeName, once.
// The pod gets PodScheduled=True and the binding's annotations in the same write.

export interface BindingDeps {
  store: ObjectStore;
  clock: Clock;
}

/** field.ErrorList.ToAggregate().Error(): one message, or several in brackets. */
const aggregate = (messages: string[]) => (messages.length === 1 ? messages[0]! : `[${messages.join(", ")}]`);

/**
 * Binds a pod to a node. Returns the Status to answer with 201; throws a StatusError as the
 * real handler does (400 malformed, 404 no pod, 409 already bound or being deleted).
 */
export function bindPod(deps: BindingDeps, namespace: string, name: string, bodyText: string): SuccessStatus {
  const binding = parseObject(bodyText);
  if (binding.apiVersion !== undefined && binding.apiVersion !== "v1") {
    throw StatusError.badRequest(`the API version in the data (${binding.apiVersion}) does not match the expected API version (v1)`);
  }
  if (binding.kind !== undefined && binding.kind !== "Binding") {
    throw StatusError.badRequest(`no kind "${binding.kind}" is registered for version "v1" in scheme "k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30"`);
  }
  if (binding.metadata.namespace && binding.metadata.namespace !== namespace) {
    throw StatusError.badRequest("the namespace of the provided object does not match the namespace sent on the request");
  }
  if ((binding.metadata.name ?? "") !== name) throw StatusError.badRequest("name in URL does not match name in Binding object");

  // validation.ValidatePodBinding. Its errors leave as a plain aggregate, which the API server
  // answers as an internal error (500) with the aggregate's text.
  const target = record(binding.target);
  const kind = typeof target.kind === "string" ? target.kind : "";
  const node = typeof target.name === "string" ? target.name : "";
  const errors: string[] = [];
  if (kind !== "" && kind !== "Node") errors.push(`target.kind: Unsupported value: ${JSON.stringify(kind)}: supported values: "Node", "<empty>"`);
  if (node === "") errors.push("target.name: Required value");
  if (errors.length > 0) throw StatusError.of(500, "", aggregate(errors));

  const pod = deps.store.peek(refs.pods, namespace, name);
  if (!pod) throw StatusError.notFound(refs.pods, name);
  // The binding's uid and resourceVersion, when given, are preconditions on the pod.
  if (binding.metadata.uid && binding.metadata.uid !== pod.metadata.uid) {
    throw StatusError.conflict(refs.pods, name, `Precondition failed: UID in precondition: ${binding.metadata.uid}, UID in object meta: ${pod.metadata.uid}`);
  }
  if (binding.metadata.resourceVersion && binding.metadata.resourceVersion !== pod.metadata.resourceVersion) {
    throw StatusError.conflict(
      refs.pods,
      name,
      `Precondition failed: ResourceVersion in precondition: ${binding.metadata.resourceVersion}, ResourceVersion in object meta: ${pod.metadata.resourceVersion}`,
    );
  }
  const binder = { group: "", resource: "pods/binding" };
  if (pod.metadata.deletionTimestamp) throw StatusError.conflict(binder, name, `pod ${name} is being deleted, cannot be assigned to a host`);
  const bound = record(pod.spec).nodeName;
  if (typeof bound === "string" && bound !== "") throw StatusError.conflict(binder, name, `pod ${name} is already assigned to node "${bound}"`);
  if (Array.isArray(record(pod.spec).schedulingGates) && (record(pod.spec).schedulingGates as unknown[]).length > 0) {
    throw StatusError.conflict(binder, name, `pod ${name} has non-empty .spec.schedulingGates`);
  }

  // The real binding writes the pod directly, past its update strategy: no new generation.
  deps.store.update(refs.pods, assign(pod, node, binding.metadata.annotations, timestamp(deps.clock.now())), { keepGeneration: true });
  return successStatus();
}

/** setPodNodeAndMetadata: nodeName, the binding's annotations, PodScheduled=True. */
function assign(pod: StoredObject, node: string, annotations: Record<string, string> | undefined, now: string): StoredObject {
  const next = clone(pod);
  next.spec = { ...record(next.spec), nodeName: node };
  if (annotations && Object.keys(annotations).length > 0) next.metadata.annotations = { ...next.metadata.annotations, ...annotations };
  // podutil.UpdatePodCondition with a bare {PodScheduled, True}: a previous reason and message go.
  const existing = conditions(next).find((condition) => condition.type === "PodScheduled");
  const scheduled: Condition = {
    type: "PodScheduled",
    status: "True",
    lastProbeTime: null,
    lastTransitionTime: existing && existing.status === "True" && existing.lastTransitionTime ? existing.lastTransitionTime : now,
  };
  status(next).conditions = existing ? conditions(next).map((condition) => (condition.type === "PodScheduled" ? scheduled : condition)) : [...conditions(next), scheduled];
  return next;
}

/** A client-side Binding body, as the scheduler sends it. */
export function bindingBody(namespace: string, name: string, node: string): string {
  return JSON.stringify({ apiVersion: "v1", kind: "Binding", metadata: { name, namespace }, target: { apiVersion: "v1", kind: "Node", name: node } });
}
