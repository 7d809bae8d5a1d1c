import type { Clock } from "../clock.ts";
import {
  controllerOf, findCondition, fnv1a32, groupOf, list, ownerReferenceTo, podPhase, record, refs, removeCondition, setCondition, setControllerReference, splitKey, status, timestamp,
  type Condition,
} from "../k8s-objects.ts";
import { clone, deepEqual, type KubeObject, type OwnerReference, type StoredObject } from "../objects.ts";
import { podDeletionGrace } from "../api/strategies.ts";
import { apiFailure, StatusError } from "../status-error.ts";
import type { ObjectStore, StoreEvent } from "../store/object-store.ts";
import { createAsApiServer } from "./create-as-api-server.ts";
import type { EventRecorder } from "./event-recorder.ts";
import type { Reconciler, ReconcileResult } from "./reconciler.ts";
import { CREATED_BY_LABEL, EXTENSIONS_GROUP, POD_NAME_ANNOTATION, TEMPLATE_REF_HASH_LABEL, TRACE_CONTEXT_ANNOTATION, WARM_POOL_LABEL } from "./sandbox-extensions.ts";


// The agent-sandbox controller, sigs.k8s.io/agent-sandbox v0.5.6 controllers/sandbox_controller.go,
// reconcile for reconcile:
// - claims first: one per volumeClaimTemplate, named <template>-<sandbox>, owned by the Sandbox
//   (an unowned one is adopted only with the adoptable or the name-hash label; one owned by
//   another controller is an error);
// - then the pod, named after the Sandbox (or the agents.x-k8s.io/pod-name annotation, which the
//   controller keeps on the Sandbox while it has a pod): created from the podTemplate when it is
//   missing, a Failed or Succeeded one is left alone, one being deleted is still the pod; an
//   existing pod's labels and annotations follow the template (agents.x-k8s.io/propagated-*
//   remember which); Suspended deletes an owned pod and tracks it while it terminates, and refuses
//   (quietly) to delete one it does not own. The owner reference decides which pod is the
//   Sandbox's: an owned pod found by the name-hash label wins over the annotation, and two owned
//   pods are a conflict (Ready=False MultiplePods, a Warning event, no Service touched, no retry);
// - a headless Service only when spec.service is true (with it unset an owned one is kept);
// - the status: conditions Ready and Suspended (always: False NotSuspended while Running;
//   PodTerminating, PodNotOwned or True PodTerminated while Suspended), PodScheduled mirrored from
//   an owned pod (gone with the pod), Finished (an owned pod Succeeded or Failed), each with
//   observedGeneration; selector, podIPs and nodeName from an owned pod; service and serviceFQDN
//   from the Service. A change of the node name alone is not written while the Sandbox is not
//   Ready; the status is merge-patched, without a resourceVersion precondition.
// - shutdownTime passed: Ready=False SandboxExpired first, then the pod and the Service go (the
//   claims stay) and the status keeps its conditions only; shutdownPolicy Delete deletes the
//   Sandbox instead.
// It watches Sandboxes and the pods and Services it controls (name-hash label present), not claims.
// An error still writes the status (Ready=False ReconcilerError "Error seen: …"), then retries.

/** The release of agent-sandbox whose controller this one follows. */
export const SANDBOX_CONTROLLER_VERSION = "v0.5.6";
export const SANDBOX_NAME_HASH_LABEL = "agents.x-k8s.io/sandbox-name-hash";
export const PROPAGATED_LABELS_ANNOTATION = "agents.x-k8s.io/propagated-labels";
export const PROPAGATED_ANNOTATIONS_ANNOTATION = "agents.x-k8s.io/propagated-annotations";
const ADOPTABLE_LABEL = "agents.x-k8s.io/adoptable";
const EXTENSION_POD_LABELS = [WARM_POOL_LABEL, TEMPLATE_REF_HASH_LABEL];
const CLUSTER_DOMAIN = "cluster.local";
/** immediateRequeueDelay */
const IMMEDIATE_REQUEUE_MS = 1;

const SANDBOXES = "agents.x-k8s.io/sandboxes";

const isSystemKey = (key: string) => key.startsWith("agents.x-k8s.io/") || key.startsWith("extensions.agents.x-k8s.io/");
const isSystemAnnotation = (key: string) => isSystemKey(key) || key === TRACE_CONTEXT_ANNOTATION;
const isControllerManagedPodAnnotation = (key: string) => key === PROPAGATED_LABELS_ANNOTATION || key === PROPAGATED_ANNOTATIONS_ANNOTATION;
const normalizeCreatedBy = (value: string) => (["go-client", "python-client", "controller"].includes(value) ? value : "unknown");
/** Go's %q, for the names in the controller's error messages. */
const quoted = (text: string) => JSON.stringify(text);
const stringMap = (value: unknown) => record(value) as Record<string, string>;

type Ownership = { kind: "owned" } | { kind: "unowned" } | { kind: "other"; ref: OwnerReference };

function ownership(object: KubeObject, sandbox: StoredObject): Ownership {
  const ref = controllerOf(object);
  if (!ref) return { kind: "unowned" };
  return ref.uid === sandbox.metadata.uid ? { kind: "owned" } : { kind: "other", ref };
}

const ownedByOther = (what: string, name: string, ref: OwnerReference, sandbox: StoredObject) =>
  `${what} ${quoted(name)} is owned by ${ref.kind}/${ref.name} (UID: ${ref.uid}), not by sandbox ${quoted(sandbox.metadata.name)}`;

const cannotAdopt = (what: string, name: string) =>
  `cannot adopt unowned ${what} ${quoted(name)}: missing required pool authorization label (${quoted(ADOPTABLE_LABEL)}) or sandbox tracking label (${quoted(SANDBOX_NAME_HASH_LABEL)})`;

const mayAdopt = (object: KubeObject, hash: string) =>
  object.metadata.labels?.[ADOPTABLE_LABEL] === "true" || object.metadata.labels?.[SANDBOX_NAME_HASH_LABEL] === hash;

/** The pod a reconcile ends with (absent when there is none), or why it could not. */
interface PodOutcome {
  pod?: StoredObject;
  error?: string;
  /** More than one pod is controlled by the Sandbox: a conflict only a person or a pod event resolves. */
  multiplePods?: boolean;
}

/** The Sandbox being reconciled: the object as the controller holds it, changed as it goes. */
interface Working {
  sandbox: StoredObject;
  hash: string;
}

export class AgentSandboxController implements Reconciler {
  readonly name = "agent-sandbox";

  constructor(
    private readonly store: ObjectStore,
    private readonly clock: Clock,
    private readonly recorder?: EventRecorder,
  ) {}

  initialKeys(): string[] {
    return this.store.list(refs.sandboxes).map((sandbox) => `${sandbox.metadata.namespace}/${sandbox.metadata.name}`);
  }

  /** For(Sandbox), Owns(Pod) and Owns(Service), the latter two with the name-hash label present. */
  keysFor(event: StoreEvent): string[] {
    if (event.resource === SANDBOXES) return [`${event.object.metadata.namespace}/${event.object.metadata.name}`];
    if (event.resource === "pods" || event.resource === "services") {
      const owner = controllerOf(event.object);
      const labelled = event.object.metadata.labels?.[SANDBOX_NAME_HASH_LABEL] !== undefined;
      if (labelled && owner?.kind === "Sandbox" && groupOf(owner.apiVersion) === "agents.x-k8s.io") return [`${event.object.metadata.namespace}/${owner.name}`];
    }
    return [];
  }

  reconcile(key: string): ReconcileResult | void {
    const { namespace, name } = splitKey(key);
    const stored = this.store.peek(refs.sandboxes, namespace, name);
    if (!stored || stored.metadata.deletionTimestamp) return;
    const working: Working = { sandbox: clone(stored), hash: fnv1a32(name) };
    const oldStatus = clone(record(stored.status));
    const shutdownTime = shutdownTimeOf(stored);

    if (this.expired(shutdownTime)) {
      if (!markedExpired(working.sandbox)) {
        setExpiredCondition(working.sandbox, this.now());
        this.updateStatus(oldStatus, working.sandbox);
        return { requeueAfterMs: IMMEDIATE_REQUEUE_MS };
      }
      const { deleted, errors } = this.handleExpiry(working);
      if (!deleted) this.updateStatus(oldStatus, working.sandbox);
      if (errors.length > 0) throw new Error(errors.join("\n"));
      return;
    }

    const errors = this.reconcileChildResources(working);
    let requeueAfterMs: number | undefined;
    if (shutdownTime !== undefined) {
      if (this.expired(shutdownTime)) {
        setExpiredCondition(working.sandbox, this.now());
        requeueAfterMs = IMMEDIATE_REQUEUE_MS;
      } else {
        // Requeue at expiry time or in 2 seconds, whichever is later.
        requeueAfterMs = Math.max(shutdownTime - this.clock.now().getTime(), 2_000);
      }
    }
    this.updateStatus(oldStatus, working.sandbox);
    if (errors.length > 0) throw new Error(errors.join("\n"));
    return requeueAfterMs === undefined ? undefined : { requeueAfterMs };
  }

  private now(): string {
    return timestamp(this.clock.now());
  }

  private expired(shutdownTime: number | undefined): boolean {
    return shutdownTime !== undefined && shutdownTime <= this.clock.now().getTime();
  }

  private reconcileChildResources(working: Working): string[] {
    const errors: string[] = [];
    const claimError = this.reconcileClaims(working);
    if (claimError) errors.push(claimError);
    const { pod, error: podError, multiplePods } = this.reconcilePod(working);
    // A pod mapping conflict is written into the conditions but not retried: only a pod event changes it.
    const conditionErrors = [...errors, ...(podError ? [podError] : [])];
    if (podError && !multiplePods) errors.push(podError);
    if (multiplePods) this.recordMultiplePods(working.sandbox, podError!);
    const sandboxStatus = status(working.sandbox);
    if (pod) sandboxStatus.selector = `${SANDBOX_NAME_HASH_LABEL}=${working.hash}`;
    if (!pod || ownership(pod, working.sandbox).kind !== "owned") {
      delete sandboxStatus.podIPs;
      delete sandboxStatus.nodeName;
    } else {
      const ips = list(record(pod.status).podIPs).map((entry) => String(entry.ip));
      if (ips.length > 0) sandboxStatus.podIPs = ips;
      else delete sandboxStatus.podIPs;
      const nodeName = record(pod.spec).nodeName;
      if (typeof nodeName === "string" && nodeName) sandboxStatus.nodeName = nodeName;
      else delete sandboxStatus.nodeName;
    }
    // While the pod mapping is ambiguous the Service is left as it is, for an operator to look at.
    const { service, error: serviceError } = multiplePods ? { service: undefined, error: undefined } : this.reconcileService(working);
    if (serviceError) {
      errors.push(serviceError);
      conditionErrors.push(serviceError);
    }

    const now = this.now();
    const computed = computeConditions(working.sandbox, { errors: conditionErrors, multiplePods: multiplePods ? podError! : undefined, podUnknown: !pod && podError !== undefined }, service, pod);
    for (const condition of computed) setCondition(working.sandbox, condition, now);
    // Finished and PodScheduled are there only while they apply; Suspended persists.
    for (const type of ["Finished", "PodScheduled"]) if (!computed.some((condition) => condition.type === type)) removeCondition(working.sandbox, type);
    if (list(record(working.sandbox.status).conditions).length === 0) delete status(working.sandbox).conditions;
    return errors;
  }

  private reconcileClaims(working: Working): string | undefined {
    const { sandbox, hash } = working;
    const namespace = sandbox.metadata.namespace;
    for (const template of list(record(sandbox.spec).volumeClaimTemplates)) {
      const metadata = record(template.metadata);
      const claimName = `${String(metadata.name)}-${sandbox.metadata.name}`;
      const existing = this.store.peek(refs.claims, namespace, claimName);
      if (existing) {
        const owner = ownership(existing, sandbox);
        if (owner.kind === "other") return ownedByOther("PVC", claimName, owner.ref, sandbox);
        if (owner.kind === "unowned") {
          if (!mayAdopt(existing, hash)) return cannotAdopt("PVC", claimName);
          const adopted = clone(existing);
          setControllerReference(adopted, sandbox);
          try {
            this.store.update(refs.claims, { ...adopted, metadata: { ...adopted.metadata, resourceVersion: undefined } } as KubeObject);
          } catch (error) {
            return `failed to patch PVC with owner reference: ${apiFailure(error)}`;
          }
        }
        continue;
      }
      const labels = stringMap(metadata.labels);
      const annotations = stringMap(metadata.annotations);
      const claim: KubeObject = {
        apiVersion: "v1",
        kind: "PersistentVolumeClaim",
        metadata: {
          name: claimName,
          namespace,
          labels: { ...labels, [SANDBOX_NAME_HASH_LABEL]: hash },
          ...(Object.keys(annotations).length > 0 ? { annotations: { ...annotations } } : {}),
          ownerReferences: [ownerReferenceTo(sandbox)],
        },
        spec: clone(record(template.spec)),
      };
      try {
        this.createAsApiServer("persistentvolumeclaims", claim);
      } catch (error) {
        return apiFailure(error);
      }
    }
    return undefined;
  }

  private reconcilePod(working: Working): PodOutcome {
    const { sandbox, hash } = working;
    const namespace = sandbox.metadata.namespace;
    // The name-hash label only finds candidates; the controller owner reference decides.
    const owned = this.store.list(refs.pods, namespace).filter((candidate) => candidate.metadata.labels?.[SANDBOX_NAME_HASH_LABEL] === hash && ownership(candidate, sandbox).kind === "owned");
    const annotated = sandbox.metadata.annotations?.[POD_NAME_ANNOTATION];
    const podName = annotated || sandbox.metadata.name;
    let pod = this.store.peek(refs.pods, namespace, podName);
    if (!pod && annotated !== undefined) {
      // The pod the annotation names is gone: forget it to recover.
      const error = this.clearPodNameAnnotation(working);
      if (error) return { error };
    }
    if (pod && ownership(pod, sandbox).kind === "owned" && !owned.some((one) => one.metadata.name === pod!.metadata.name)) owned.push(pod);
    if (owned.length > 1) return { error: `multiple Pods (${owned.length}) are controlled by this Sandbox; refusing to choose or create a Pod`, multiplePods: true };
    if (owned.length === 1 && pod?.metadata.name !== owned[0]!.metadata.name) {
      // The owned pod wins over a missing or stale annotation.
      if (sandbox.metadata.annotations?.[POD_NAME_ANNOTATION] !== undefined) {
        const error = this.clearPodNameAnnotation(working);
        if (error) return { error };
      }
      pod = owned[0];
    }

    if (record(sandbox.spec).operatingMode === "Suspended") {
      if (pod && ownership(pod, sandbox).kind === "owned" && !pod.metadata.deletionTimestamp) {
        try {
          this.store.delete(refs.pods, namespace, pod.metadata.name, { gracePeriodSeconds: podDeletionGrace(pod) });
        } catch (error) {
          return { pod, error: `failed to delete pod: ${apiFailure(error)}` };
        }
      }
      // A pod not controlled by this Sandbox is refused, quietly; a terminating one is tracked until it is gone.
      const error = this.clearPodNameAnnotation(working);
      return error ? { pod, error } : { pod };
    }

    if (pod) return this.reconcileExistingPod(working, pod);

    let created: StoredObject;
    try {
      created = this.createAsApiServer("pods", this.newPod(working));
    } catch (error) {
      if (error instanceof StatusError && error.status.reason === "AlreadyExists") {
        const existing = this.store.peek(refs.pods, namespace, sandbox.metadata.name);
        if (!existing) return { error: `pod already exists but failed to fetch: ${error.message}` };
        return this.reconcileExistingPod(working, existing);
      }
      return { error: apiFailure(error) };
    }
    const error = this.ensurePodNameAnnotation(working, created.metadata.name);
    return error ? { error } : { pod: created };
  }

  private reconcileExistingPod(working: Working, pod: StoredObject): { pod?: StoredObject; error?: string } {
    const { sandbox, hash } = working;
    const owner = ownership(pod, sandbox);
    if (owner.kind === "other") {
      const error = this.clearPodNameAnnotation(working);
      return { error: error ?? ownedByOther("pod", pod.metadata.name, owner.ref, sandbox) };
    }
    const next = clone(pod);
    let adopt = false;
    if (owner.kind === "unowned") {
      if (!mayAdopt(pod, hash)) return { error: cannotAdopt("pod", pod.metadata.name) };
      setControllerReference(next, sandbox);
      adopt = true;
    }
    let current = pod;
    if (updatePodMetadata(next, sandbox, hash) || adopt) {
      try {
        // A merge patch of the metadata: no resourceVersion precondition.
        current = this.store.update(refs.pods, { ...next, metadata: { ...next.metadata, resourceVersion: undefined } } as KubeObject);
      } catch (error) {
        return { error: `failed to patch pod: ${apiFailure(error)}` };
      }
    }
    const error = this.ensurePodNameAnnotation(working, pod.metadata.name);
    return error ? { error } : { pod: current };
  }

  private newPod(working: Working): KubeObject {
    const { sandbox, hash } = working;
    const sandboxSpec = record(sandbox.spec);
    const template = record(sandboxSpec.podTemplate);
    const templateMetadata = record(template.metadata);
    const labels: Record<string, string> = {};
    const managedLabels: string[] = [];
    for (const [key, value] of Object.entries(stringMap(templateMetadata.labels))) {
      if (isSystemKey(key)) continue;
      labels[key] = value;
      managedLabels.push(key);
    }
    labels[SANDBOX_NAME_HASH_LABEL] = hash;
    Object.assign(labels, extensionPodLabels(sandbox));
    const createdBy = sandbox.metadata.labels?.[CREATED_BY_LABEL];
    if (createdBy) labels[CREATED_BY_LABEL] = normalizeCreatedBy(createdBy);
    const annotations: Record<string, string> = {};
    const managedAnnotations: string[] = [];
    for (const [key, value] of Object.entries(stringMap(templateMetadata.annotations))) {
      if (isSystemAnnotation(key)) continue;
      annotations[key] = value;
      managedAnnotations.push(key);
    }
    if (managedLabels.length > 0) annotations[PROPAGATED_LABELS_ANNOTATION] = managedLabels.sort().join(",");
    if (managedAnnotations.length > 0) annotations[PROPAGATED_ANNOTATIONS_ANNOTATION] = managedAnnotations.sort().join(",");

    const podSpec = clone(record(template.spec));
    // A claim template's volume replaces any pod volume of the same name.
    const claimVolumes = list(sandboxSpec.volumeClaimTemplates).map((claimTemplate) => {
      const volumeName = String(record(claimTemplate.metadata).name);
      return { name: volumeName, persistentVolumeClaim: { claimName: `${volumeName}-${sandbox.metadata.name}` } };
    });
    if (claimVolumes.length > 0) {
      const claimNames = new Set(claimVolumes.map((volume) => volume.name));
      podSpec.volumes = [...list(podSpec.volumes).filter((volume) => !claimNames.has(String(volume.name))), ...claimVolumes];
    }
    return {
      apiVersion: "v1",
      kind: "Pod",
      metadata: {
        name: sandbox.metadata.name,
        namespace: sandbox.metadata.namespace,
        labels,
        ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
        ownerReferences: [ownerReferenceTo(sandbox)],
      },
      spec: podSpec,
    };
  }

  private reconcileService(working: Working): { service?: StoredObject; error?: string } {
    const { sandbox, hash } = working;
    const namespace = sandbox.metadata.namespace;
    const name = sandbox.metadata.name;
    const desired = record(sandbox.spec).service as boolean | undefined;
    const service = this.store.peek(refs.services, namespace, name);
    if (!service) {
      if (desired !== true) {
        clearServiceStatus(sandbox);
        return {};
      }
      const headless: KubeObject = {
        apiVersion: "v1",
        kind: "Service",
        metadata: { name, namespace, labels: { [SANDBOX_NAME_HASH_LABEL]: hash }, ownerReferences: [ownerReferenceTo(sandbox)] },
        spec: { clusterIP: "None", selector: { [SANDBOX_NAME_HASH_LABEL]: hash } },
      };
      try {
        const created = this.createAsApiServer("services", headless);
        setServiceStatus(sandbox, created);
        return { service: created };
      } catch (error) {
        return { error: apiFailure(error) };
      }
    }

    const owner = ownership(service, sandbox);
    if (desired === false) {
      if (owner.kind === "owned") {
        try {
          this.store.delete(refs.services, namespace, name, {});
        } catch (error) {
          if (!(error instanceof StatusError && error.status.reason === "NotFound")) return { error: `failed to delete service: ${apiFailure(error)}` };
        }
      }
      clearServiceStatus(sandbox);
      return {};
    }
    let current = service;
    if (owner.kind === "other") {
      return { error: ownedByOther("service", name, owner.ref, sandbox) };
    } else if (owner.kind === "unowned") {
      if (desired === undefined) {
        clearServiceStatus(sandbox);
        return {};
      }
      if (!mayAdopt(service, hash)) return { error: cannotAdopt("service", name) };
      const clusterIP = record(service.spec).clusterIP;
      if (clusterIP !== "None" && clusterIP !== undefined && clusterIP !== "") {
        return { error: `cannot adopt service ${quoted(name)}: ClusterIP is ${quoted(String(clusterIP))} (expected "None", field is immutable)` };
      }
      const adopted = clone(service);
      adopted.metadata.labels = { ...adopted.metadata.labels, [SANDBOX_NAME_HASH_LABEL]: hash };
      adopted.spec = { ...record(adopted.spec), selector: { [SANDBOX_NAME_HASH_LABEL]: hash } };
      setControllerReference(adopted, sandbox);
      try {
        current = this.store.update(refs.services, adopted);
      } catch (error) {
        return { error: `failed to update service with owner reference: ${apiFailure(error)}` };
      }
    } else {
      const selector = { [SANDBOX_NAME_HASH_LABEL]: hash };
      if (service.metadata.labels?.[SANDBOX_NAME_HASH_LABEL] !== hash || !deepEqual(record(service.spec).selector, selector)) {
        const fixed = clone(service);
        fixed.metadata.labels = { ...fixed.metadata.labels, [SANDBOX_NAME_HASH_LABEL]: hash };
        fixed.spec = { ...record(fixed.spec), selector };
        try {
          current = this.store.update(refs.services, { ...fixed, metadata: { ...fixed.metadata, resourceVersion: undefined } } as KubeObject);
        } catch (error) {
          return { error: `failed to patch owned service: ${apiFailure(error)}` };
        }
      }
    }
    setServiceStatus(sandbox, current);
    return { service: current };
  }

  /** handleSandboxExpiry: the pod and the Service go, the claims stay; Delete takes the Sandbox. */
  private handleExpiry(working: Working): { deleted: boolean; errors: string[] } {
    const { sandbox } = working;
    const namespace = sandbox.metadata.namespace;
    const errors: string[] = [];
    const podName = sandbox.metadata.annotations?.[POD_NAME_ANNOTATION] || sandbox.metadata.name;
    const pod = this.store.peek(refs.pods, namespace, podName);
    if (pod && ownership(pod, sandbox).kind === "owned") {
      try {
        this.store.delete(refs.pods, namespace, podName, { gracePeriodSeconds: podDeletionGrace(pod) });
      } catch (error) {
        if (!(error instanceof StatusError && error.status.reason === "NotFound")) errors.push(`failed to delete pod: ${apiFailure(error)}`);
      }
    }
    const service = this.store.peek(refs.services, namespace, sandbox.metadata.name);
    if (service && ownership(service, sandbox).kind === "owned") {
      try {
        this.store.delete(refs.services, namespace, sandbox.metadata.name, {});
      } catch (error) {
        if (!(error instanceof StatusError && error.status.reason === "NotFound")) errors.push(`failed to delete service: ${apiFailure(error)}`);
      }
    }
    if (record(sandbox.spec).shutdownPolicy === "Delete") {
      try {
        this.store.delete(refs.sandboxes, namespace, sandbox.metadata.name, {});
        return { deleted: true, errors: [] };
      } catch (error) {
        if (!(error instanceof StatusError && error.status.reason === "NotFound")) errors.push(`failed to delete sandbox: ${apiFailure(error)}`);
        else return { deleted: true, errors: [] };
      }
    }
    if (errors.length === 0) {
      // The live-resource status goes; the conditions stay.
      const conditions = record(sandbox.status).conditions;
      sandbox.status = conditions ? { conditions } : {};
      setExpiredCondition(sandbox, this.now());
    }
    return { deleted: false, errors };
  }

  /** Created as if through the API server, with its defaults and admission. */
  private createAsApiServer(resource: "pods" | "persistentvolumeclaims" | "services", object: KubeObject): StoredObject {
    return createAsApiServer(this.store, "", resource, object);
  }

  private ensurePodNameAnnotation(working: Working, podName: string): string | undefined {
    const annotated = working.sandbox.metadata.annotations?.[POD_NAME_ANNOTATION];
    // Already tracked, or tracking another pod: leave it.
    if (annotated) return undefined;
    return this.patchSandboxAnnotations(working, (annotations) => {
      annotations[POD_NAME_ANNOTATION] = podName;
    }, "failed to set pod name annotation");
  }

  private clearPodNameAnnotation(working: Working): string | undefined {
    if (working.sandbox.metadata.annotations?.[POD_NAME_ANNOTATION] === undefined) return undefined;
    return this.patchSandboxAnnotations(working, (annotations) => {
      delete annotations[POD_NAME_ANNOTATION];
    }, "failed to clear pod name annotation");
  }

  /** A merge patch of the Sandbox's annotations; the controller goes on with what it returns. */
  private patchSandboxAnnotations(working: Working, change: (annotations: Record<string, string>) => void, what: string): string | undefined {
    const { sandbox } = working;
    const latest = this.store.peek(refs.sandboxes, sandbox.metadata.namespace, sandbox.metadata.name);
    if (!latest) return `${what}: ${StatusError.notFound(refs.sandboxes, sandbox.metadata.name).message}`;
    const next = clone(latest);
    const annotations = { ...next.metadata.annotations };
    change(annotations);
    if (Object.keys(annotations).length > 0) next.metadata.annotations = annotations;
    else delete next.metadata.annotations;
    try {
      const patched = this.store.update(refs.sandboxes, next);
      // The patch answers with the whole object; what the controller has computed so far stays.
      working.sandbox = { ...patched, status: sandbox.status };
      if (sandbox.status === undefined) delete working.sandbox.status;
    } catch (error) {
      return `${what}: ${apiFailure(error)}`;
    }
    return undefined;
  }

  /** recordMultiplePodsEvent: a Warning once, not again while Ready already says so. */
  private recordMultiplePods(sandbox: StoredObject, message: string): void {
    if (findCondition(sandbox, "Ready")?.reason === "MultiplePods") return;
    this.recorder?.record(sandbox, "Warning", "MultiplePods", message, "sandbox-controller");
  }

  /** updateStatus: nothing when nothing changed, nor for the node name alone on a Sandbox that is not Ready. */
  private updateStatus(oldStatus: Record<string, unknown>, sandbox: StoredObject): void {
    const next = record(sandbox.status);
    if (deepEqual(oldStatus, next)) return;
    if (oldStatus.nodeName !== next.nodeName && deepEqual({ ...next, nodeName: oldStatus.nodeName }, oldStatus)) {
      if (findCondition(sandbox, "Ready")?.status !== "True") return;
    }
    const latest = this.store.peek(refs.sandboxes, sandbox.metadata.namespace, sandbox.metadata.name);
    // Deleted mid-reconcile: nothing to write.
    if (!latest) return;
    // A merge patch of the status subresource: no resourceVersion precondition, the whole conditions list replaced.
    this.store.update(refs.sandboxes, { ...latest, status: next });
  }
}

function shutdownTimeOf(sandbox: StoredObject): number | undefined {
  const value = record(sandbox.spec).shutdownTime;
  if (typeof value !== "string") return undefined;
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? undefined : parsed;
}

const generationOf = (sandbox: StoredObject) => sandbox.metadata.generation ?? 0;

/** setSandboxExpiredCondition: the pod goes with expiry, so its mirrored PodScheduled goes too (Finished stays). */
function setExpiredCondition(sandbox: StoredObject, now: string): void {
  setCondition(sandbox, { type: "Ready", status: "False", observedGeneration: generationOf(sandbox), reason: "SandboxExpired", message: "Sandbox has expired" }, now);
  removeCondition(sandbox, "PodScheduled");
}

const markedExpired = (sandbox: StoredObject) => findCondition(sandbox, "Ready")?.reason === "SandboxExpired";

function setServiceStatus(sandbox: StoredObject, service: StoredObject): void {
  status(sandbox).service = service.metadata.name;
  status(sandbox).serviceFQDN = `${service.metadata.name}.${service.metadata.namespace}.svc.${CLUSTER_DOMAIN}`;
}

function clearServiceStatus(sandbox: StoredObject): void {
  delete status(sandbox).service;
  delete status(sandbox).serviceFQDN;
}

/** What went wrong in a reconcile, as the conditions report it. */
interface ConditionErrors {
  errors: string[];
  /** The pod mapping conflict, when there is one. */
  multiplePods?: string;
  /** The pod could not be reconciled and none is known: its state is unknown, not absent. */
  podUnknown: boolean;
}

const isOwned = (pod: StoredObject | undefined, sandbox: StoredObject): pod is StoredObject => pod !== undefined && ownership(pod, sandbox).kind === "owned";

/** computeConditions, in its order: Suspended always, Finished for an owned pod that ended, PodScheduled mirrored from an owned pod, and Ready. */
function computeConditions(sandbox: StoredObject, failed: ConditionErrors, service: StoredObject | undefined, pod: StoredObject | undefined): Condition[] {
  const observedGeneration = generationOf(sandbox);
  const computed: Condition[] = [suspendedCondition(sandbox, pod, failed.podUnknown, observedGeneration)];
  const phase = isOwned(pod, sandbox) ? podPhase(pod) : undefined;
  if (phase === "Succeeded") computed.push({ type: "Finished", status: "True", observedGeneration, reason: "PodSucceeded", message: "Pod completed successfully" });
  if (phase === "Failed") computed.push({ type: "Finished", status: "True", observedGeneration, reason: "PodFailed", message: "Pod failed" });
  const scheduled = podScheduledCondition(sandbox, pod, failed.podUnknown, observedGeneration);
  if (scheduled) computed.push(scheduled);
  computed.push(readyCondition(sandbox, failed, service, pod, observedGeneration));
  return computed;
}

function suspendedCondition(sandbox: StoredObject, pod: StoredObject | undefined, podUnknown: boolean, observedGeneration: number): Condition {
  const condition = (status: Condition["status"], reason: string, message: string): Condition => ({ type: "Suspended", status, observedGeneration, reason, message });
  if (record(sandbox.spec).operatingMode !== "Suspended") return condition("False", "NotSuspended", "Sandbox is not suspended");
  if (!pod && podUnknown) return condition("Unknown", "PodStateUnknown", "Pod state is unknown. Sandbox suspension cannot be confirmed");
  if (!pod) return condition("True", "PodTerminated", "Pod has been terminated. Sandbox is suspended");
  if (!isOwned(pod, sandbox)) return condition("False", "PodNotOwned", "Refused to delete pod because it is not owned by this sandbox");
  return condition("False", "PodTerminating", "Pod is terminating. Sandbox is suspending");
}

/** The owned pod's PodScheduled, copied as it is; none without a pod this Sandbox owns. */
function podScheduledCondition(sandbox: StoredObject, pod: StoredObject | undefined, podUnknown: boolean, observedGeneration: number): Condition | undefined {
  const condition = (status: Condition["status"], reason: string, message: string): Condition => ({ type: "PodScheduled", status, observedGeneration, reason, message });
  if (!pod && podUnknown) return condition("Unknown", "PodSchedulingUnknown", "Pod state is unknown. Pod scheduling cannot be determined");
  if (!isOwned(pod, sandbox)) return undefined;
  const scheduled = findCondition(pod, "PodScheduled");
  if (!scheduled) return condition("Unknown", "PodSchedulingUnknown", "Pod has not reported a PodScheduled condition yet");
  const status = scheduled.status;
  return condition(status, scheduled.reason || (status === "True" ? "PodScheduled" : "PodSchedulingUnknown"), scheduled.message ?? "");
}

function readyCondition(sandbox: StoredObject, failed: ConditionErrors, service: StoredObject | undefined, pod: StoredObject | undefined, observedGeneration: number): Condition {
  const notReady = (reason: string, message: string): Condition => ({ type: "Ready", status: "False", observedGeneration, reason, message });
  if (failed.multiplePods) return notReady("MultiplePods", failed.multiplePods);
  if (failed.errors.length > 0) return notReady("ReconcilerError", `Error seen: ${failed.errors.join("\n")}`);
  if (record(sandbox.spec).operatingMode === "Suspended") return notReady("SandboxSuspended", pod ? "Sandbox is suspending" : "Sandbox is suspended");
  const phase = pod ? podPhase(pod) : undefined;
  if (phase === "Succeeded") return notReady("PodSucceeded", "Pod completed successfully");
  if (phase === "Failed") return notReady("PodFailed", "Pod failed");
  let message = "Pod does not exist";
  let podReady = false;
  if (pod) {
    message = `Pod exists with phase: ${String(record(pod.status).phase ?? "")}`;
    if (phase === "Running") {
      message = "Pod is Running but not Ready";
      if (findCondition(pod, "Ready")?.status === "True") {
        if (list(record(pod.status).podIPs).length === 0) message = "Pod is Ready but has no podIPs yet";
        else {
          message = "Pod is Ready";
          podReady = true;
        }
      }
    }
  }
  // A Service is required when asked for, or (spec.service unset) when one exists.
  const desired = record(sandbox.spec).service;
  const serviceRequired = typeof desired === "boolean" ? desired : service !== undefined;
  if (serviceRequired) message += service ? "; Service Exists" : "; Service does not exist";
  const serviceReady = !serviceRequired || service !== undefined;
  return podReady && serviceReady
    ? { type: "Ready", status: "True", observedGeneration, reason: "DependenciesReady", message }
    : notReady("DependenciesNotReady", message);
}


function extensionPodLabels(sandbox: StoredObject): Record<string, string> {
  const owner = controllerOf(sandbox);
  if (!owner || groupOf(owner.apiVersion) !== EXTENSIONS_GROUP) return {};
  const labels: Record<string, string> = {};
  const warmPool = sandbox.metadata.labels?.[WARM_POOL_LABEL];
  if (owner.kind === "SandboxWarmPool" && warmPool) labels[WARM_POOL_LABEL] = warmPool;
  const templateRef = sandbox.metadata.labels?.[TEMPLATE_REF_HASH_LABEL];
  if (templateRef) labels[TEMPLATE_REF_HASH_LABEL] = templateRef;
  return labels;
}

/**
 * updatePodMetadata: an existing pod's labels and annotations follow the template (those the
 * template no longer has go, as the propagated-* annotations remember them); system keys never
 * come from the template. Changes `pod` in place and says whether it changed.
 */
function updatePodMetadata(pod: KubeObject, sandbox: StoredObject, hash: string): boolean {
  const before = clone(pod.metadata);
  const templateMetadata = record(record(record(sandbox.spec).podTemplate).metadata);
  const templateLabels = stringMap(templateMetadata.labels);
  const templateAnnotations = stringMap(templateMetadata.annotations);
  const labels = { ...pod.metadata.labels };
  const annotations = { ...pod.metadata.annotations };
  labels[SANDBOX_NAME_HASH_LABEL] = hash;
  const managedLabels: string[] = [];
  for (const [key, value] of Object.entries(templateLabels)) {
    if (isSystemKey(key)) continue;
    labels[key] = value;
    managedLabels.push(key);
  }
  for (const key of (annotations[PROPAGATED_LABELS_ANNOTATION] ?? "").split(",")) {
    if (!key) continue;
    if (isSystemKey(key)) {
      if (key !== SANDBOX_NAME_HASH_LABEL) delete labels[key];
      continue;
    }
    if (!(key in templateLabels)) delete labels[key];
  }
  const extension = extensionPodLabels(sandbox);
  for (const key of EXTENSION_POD_LABELS) {
    if (extension[key] !== undefined) labels[key] = extension[key];
    else delete labels[key];
  }
  const createdBy = sandbox.metadata.labels?.[CREATED_BY_LABEL];
  if (createdBy) labels[CREATED_BY_LABEL] = normalizeCreatedBy(createdBy);
  else delete labels[CREATED_BY_LABEL];
  const managedAnnotations: string[] = [];
  for (const [key, value] of Object.entries(templateAnnotations)) {
    if (isSystemAnnotation(key)) continue;
    annotations[key] = value;
    managedAnnotations.push(key);
  }
  for (const key of (annotations[PROPAGATED_ANNOTATIONS_ANNOTATION] ?? "").split(",")) {
    if (!key) continue;
    if (isSystemAnnotation(key)) {
      if (!isControllerManagedPodAnnotation(key)) delete annotations[key];
      continue;
    }
    if (!(key in templateAnnotations)) delete annotations[key];
  }
  // An absent annotation reads as "": an empty list is written only over a non-empty one.
  const labelList = managedLabels.sort().join(",");
  if ((annotations[PROPAGATED_LABELS_ANNOTATION] ?? "") !== labelList) annotations[PROPAGATED_LABELS_ANNOTATION] = labelList;
  const annotationList = managedAnnotations.sort().join(",");
  if ((annotations[PROPAGATED_ANNOTATIONS_ANNOTATION] ?? "") !== annotationList) annotations[PROPAGATED_ANNOTATIONS_ANNOTATION] = annotationList;
  pod.metadata.labels = labels;
  if (Object.keys(annotations).length > 0) pod.metadata.annotations = annotations;
  else delete pod.metadata.annotations;
  return !deepEqual(before.labels ?? {}, pod.metadata.labels ?? {}) || !deepEqual(before.annotations ?? {}, pod.metadata.annotations ?? {});
}
