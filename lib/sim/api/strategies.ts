import { BERTH_API_GROUP } from "../../domain/access.ts";
import { parseQuantity } from "../../domain/quantity.ts";
import { BERTH_RESOURCE_REFUSAL } from "../../render/berth-resource-definitions.ts";
import { servedShape } from "./served-definitions.ts";
import { deepEqual, isRecord, type KubeObject, type StoredObject } from "../objects.ts";
import type { StatusCause } from "../status-error.ts";
import { RESOURCES, type ResourceDefinition } from "./resources.ts";
import { labelSelectorFromObject, type MetaLabelSelector } from "./selectors/index.ts";

// What the API server does for each kind beyond storing it: defaults on create, validation,
// which fields an update may change, and how long a delete waits. Messages follow the real
// validation's wording ("Required value", "Invalid value", "Forbidden") so that tests written
// against the simulated cluster hold on a real one.

export interface Strategy {
  prepareForCreate?(object: KubeObject): void;
  /** Keeps what an update may leave out but the server has allocated (a Service's cluster IPs, node ports). */
  prepareForUpdate?(object: KubeObject, old: StoredObject): void;
  validate?(object: KubeObject): StatusCause[];
  validateUpdate?(object: KubeObject, old: StoredObject): StatusCause[];
  /** The grace period of a delete (`requested`: what the client asked for); 0 deletes at once. */
  deletionGracePeriodSeconds?(object: KubeObject, requested?: number): number;
  /** Why the object may not be deleted at all; null when it may. */
  deleteRefusal?(object: KubeObject): string | null;
}

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const QUANTITY = /^[+-]?(\d+(\.\d*)?|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?\d+)?$/;

const required = (field: string): StatusCause => ({ reason: "FieldValueRequired", field, message: "Required value" });
const invalid = (field: string, value: unknown, why: string): StatusCause => ({
  reason: "FieldValueInvalid",
  field,
  message: `Invalid value: ${JSON.stringify(value)}: ${why}`,
});
const forbidden = (field: string, why: string): StatusCause => ({ reason: "FieldValueForbidden", field, message: `Forbidden: ${why}` });
const unsupported = (field: string, value: unknown, allowed: string[]): StatusCause => ({
  reason: "FieldValueNotSupported",
  field,
  message: `Unsupported value: ${JSON.stringify(value)}: supported values: ${allowed.map((one) => `"${one}"`).join(", ")}`,
});

const record = (value: unknown): Record<string, unknown> => (isRecord(value) ? value : {});
const array = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

const isStringMap = (value: unknown) => isRecord(value) && Object.values(value).every((entry) => typeof entry === "string");

/** ObjectMeta's types, checked before anything reads them (a real server refuses these at decoding). */
export function validateObjectMeta(object: KubeObject): StatusCause[] {
  if (!isRecord(object.metadata)) return [required("metadata")];
  const metadata: Record<string, unknown> = object.metadata;
  const causes: StatusCause[] = [];
  for (const field of ["labels", "annotations"] as const) {
    if (metadata[field] !== undefined && metadata[field] !== null && !isStringMap(metadata[field])) {
      causes.push(invalid(`metadata.${field}`, metadata[field], "must be a map of strings to strings"));
    }
  }
  for (const field of ["name", "generateName", "namespace", "resourceVersion", "uid"] as const) {
    if (metadata[field] !== undefined && typeof metadata[field] !== "string") causes.push(invalid(`metadata.${field}`, metadata[field], "must be a string"));
  }
  const finalizers = metadata.finalizers;
  if (finalizers !== undefined && finalizers !== null && !(Array.isArray(finalizers) && finalizers.every((entry) => typeof entry === "string"))) {
    causes.push(invalid("metadata.finalizers", finalizers, "must be a list of strings"));
  }
  const references = metadata.ownerReferences;
  if (references !== undefined && references !== null) {
    if (!Array.isArray(references)) causes.push(invalid("metadata.ownerReferences", references, "must be a list"));
    else {
      references.forEach((reference, index) => {
        for (const field of ["apiVersion", "kind", "name", "uid"]) {
          const value = record(reference)[field];
          if (typeof value !== "string" || value === "") causes.push(required(`metadata.ownerReferences[${index}].${field}`));
        }
      });
    }
  }
  return causes;
}

/** Name rules every object shares. */
export function validateName(definition: ResourceDefinition, object: KubeObject): StatusCause[] {
  const name = object.metadata.name;
  if (!name) return [];
  if (definition.group === "rbac.authorization.k8s.io") {
    // RBAC names are path segments (ValidatePathSegmentName), so "system:masters"-style names are fine.
    if (name === "." || name === "..") return [invalid("metadata.name", name, `may not be '${name}'`)];
    const bad = ["/", "%"].find((character) => name.includes(character));
    return bad ? [invalid("metadata.name", name, `may not contain '${bad}'`)] : [];
  }
  if (definition.resource === "namespaces") {
    return DNS1123_LABEL.test(name) && name.length <= 63
      ? []
      : [invalid("metadata.name", name, "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')")];
  }
  return DNS1123_SUBDOMAIN.test(name) && name.length <= 253
    ? []
    : [invalid("metadata.name", name, "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')")];
}

/**
 * `checkMounts`: a real pod's mounts must name its volumes. A CRD's embedded pod template is
 * checked by an OpenAPI schema only, which cannot see across fields (a Sandbox's template mounts
 * volumes that its volumeClaimTemplates will add).
 */
function validatePodSpec(spec: unknown, field: string, checkMounts = true): StatusCause[] {
  const causes: StatusCause[] = [];
  if (!isRecord(spec)) return [required(field)];
  const containers = array(spec.containers);
  if (containers.length === 0) causes.push(required(`${field}.containers`));
  const volumeNames = new Set(array(spec.volumes).map((volume) => record(volume).name));
  const seen = new Set<unknown>();
  for (const [list, listField] of [[array(spec.initContainers), "initContainers"], [containers, "containers"]] as const) {
    list.forEach((container, index) => {
      const c = record(container);
      const at = `${field}.${listField}[${index}]`;
      if (!c.name) causes.push(required(`${at}.name`));
      else if (seen.has(c.name)) causes.push({ reason: "FieldValueDuplicate", field: `${at}.name`, message: `Duplicate value: ${JSON.stringify(c.name)}` });
      seen.add(c.name);
      if (!c.image) causes.push(required(`${at}.image`));
      array(c.volumeMounts).forEach((mount, mountIndex) => {
        const name = record(mount).name;
        if (checkMounts && !volumeNames.has(name)) causes.push({ reason: "FieldValueNotFound", field: `${at}.volumeMounts[${mountIndex}].name`, message: `Not found: ${JSON.stringify(name)}` });
      });
    });
  }
  return causes;
}

/** SetDefaults_Container: what a real API server writes into every container it stores. */
function defaultContainer(container: Record<string, unknown>): Record<string, unknown> {
  const image = String(container.image ?? "");
  const tag = /^[^@]*:([^/:@]+)$/.exec(image)?.[1];
  const pullAlways = !image.includes("@") && (tag === undefined || tag === "latest");
  return {
    imagePullPolicy: pullAlways ? "Always" : "IfNotPresent",
    terminationMessagePath: "/dev/termination-log",
    terminationMessagePolicy: "File",
    resources: {},
    ...container,
  };
}

/** GetPodQOS: Guaranteed when every container's cpu and memory limits equal its requests. */
function qosClassOf(spec: Record<string, unknown>): string {
  const containers = [...array(spec.initContainers), ...array(spec.containers)].map((container) => record(record(container).resources));
  const named = (resources: Record<string, unknown>, kind: string) => record(resources[kind]);
  const hasAny = containers.some((resources) => ["cpu", "memory"].some((name) => named(resources, "requests")[name] !== undefined || named(resources, "limits")[name] !== undefined));
  if (!hasAny) return "BestEffort";
  const guaranteed = containers.every((resources) => ["cpu", "memory"].every((name) => {
    const limit = named(resources, "limits")[name];
    const request = named(resources, "requests")[name] ?? limit;
    return limit !== undefined && parseQuantity(String(request)) === parseQuantity(String(limit));
  }));
  return guaranteed ? "Guaranteed" : "Burstable";
}

/** Pods get the tolerations the DefaultTolerationSeconds admission plugin adds. */
function defaultTolerations(spec: Record<string, unknown>): void {
  const tolerations = array(spec.tolerations).map(record);
  for (const key of ["node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"]) {
    if (!tolerations.some((toleration) => toleration.key === key && (toleration.effect === "NoExecute" || toleration.effect === undefined))) {
      tolerations.push({ key, operator: "Exists", effect: "NoExecute", tolerationSeconds: 300 });
    }
  }
  spec.tolerations = tolerations;
}

/** SetDefaults_PodSpec: what a pod's spec, or a workload's pod template, gets for what it leaves out. */
function defaultPodSpec(spec: Record<string, unknown>): void {
  spec.restartPolicy ??= "Always";
  spec.terminationGracePeriodSeconds ??= 30;
  spec.schedulerName ??= "default-scheduler";
  spec.dnsPolicy ??= "ClusterFirst";
  spec.enableServiceLinks ??= true;
  spec.securityContext ??= {};
  for (const list of ["initContainers", "containers"]) {
    if (Array.isArray(spec[list])) spec[list] = (spec[list] as unknown[]).map((container) => defaultContainer(record(container)));
  }
}

const podStrategy: Strategy = {
  prepareForCreate(object) {
    const spec = record(object.spec);
    defaultPodSpec(spec);
    spec.preemptionPolicy ??= "PreemptLowerPriority";
    spec.priority ??= 0;
    spec.serviceAccountName ??= "default";
    spec.serviceAccount ??= spec.serviceAccountName;
    defaultTolerations(spec);
    object.spec = spec;
    object.status = { phase: "Pending", qosClass: qosClassOf(spec) };
  },
  validate: (object) => validatePodSpec(object.spec, "spec"),
  validateUpdate(object, old) {
    // Pod specs are immutable but for images, activeDeadlineSeconds and added tolerations;
    // nodeName is set through the binding subresource only.
    const strip = (spec: unknown) => {
      const copy = structuredClone(record(spec));
      for (const list of ["containers", "initContainers"]) {
        copy[list] = array(copy[list]).map((container) => ({ ...record(container), image: undefined }));
      }
      delete copy.activeDeadlineSeconds;
      delete copy.tolerations;
      return copy;
    };
    return deepEqual(strip(object.spec), strip(old.spec))
      ? []
      : [forbidden("spec", "pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)")];
  },
  deletionGracePeriodSeconds: podDeletionGrace,
};

/**
 * The pod strategy's CheckGracefulDelete: the requested grace, else the pod's own; an
 * unscheduled or finished pod has nothing for a kubelet to stop and goes at once.
 */
export function podDeletionGrace(pod: KubeObject, requested?: number): number {
  const spec = record(pod.spec);
  const phase = record(pod.status).phase;
  if (!spec.nodeName || phase === "Failed" || phase === "Succeeded") return 0;
  const period = requested ?? (typeof spec.terminationGracePeriodSeconds === "number" ? spec.terminationGracePeriodSeconds : 30);
  return period < 0 ? 1 : period;
}

const ACCESS_MODES = ["ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany", "ReadWriteOncePod"];

function validateClaimSpec(spec: unknown, field: string): StatusCause[] {
  const s = record(spec);
  const causes: StatusCause[] = [];
  const modes = array(s.accessModes);
  if (modes.length === 0) causes.push(required(`${field}.accessModes`));
  modes.forEach((mode, index) => {
    if (!ACCESS_MODES.includes(String(mode))) causes.push(unsupported(`${field}.accessModes[${index}]`, mode, ACCESS_MODES));
  });
  const storage = record(record(s.resources).requests).storage;
  if (storage === undefined) causes.push(required(`${field}.resources[storage]`));
  else if (typeof storage !== "string" || !QUANTITY.test(storage)) {
    causes.push(invalid(`${field}.resources.requests[storage]`, storage, "must be a valid quantity"));
  }
  return causes;
}

/** SetDefaults_PersistentVolumeClaimSpec. */
function defaultClaimSpec(object: KubeObject): void {
  object.spec = { volumeMode: "Filesystem", ...record(object.spec) };
}

const claimStrategy: Strategy = {
  prepareForCreate(object) {
    object.status = { phase: "Pending" };
    defaultClaimSpec(object);
  },
  // Defaults apply to every body the server decodes, an update's too.
  prepareForUpdate: defaultClaimSpec,
  validate: (object) => validateClaimSpec(object.spec, "spec"),
  validateUpdate(object, old) {
    const { resources: newResources, volumeName: newVolume, storageClassName: newClass, ...newRest } = record(object.spec);
    const { resources: oldResources, volumeName: oldVolume, storageClassName: oldClass, ...oldRest } = record(old.spec);
    const causes: StatusCause[] = [];
    // A volume name may be set once (binding); a class may be set once (retroactive default class).
    const rebinds = oldVolume !== undefined && newVolume !== oldVolume;
    const reclasses = oldClass !== undefined && newClass !== oldClass;
    if (!deepEqual(newRest, oldRest) || rebinds || reclasses) {
      causes.push(forbidden("spec", "spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims"));
    }
    if (!deepEqual(newResources, oldResources) && record(old.status).phase !== "Bound") {
      causes.push(forbidden("spec.resources.requests.storage", "field can not be updated for unbound claims"));
    }
    return causes;
  },
};

const volumeStrategy: Strategy = {
  prepareForCreate(object) {
    object.status = { phase: "Pending" };
  },
  validate(object) {
    const spec = record(object.spec);
    return record(spec.capacity).storage === undefined ? [required("spec.capacity")] : [];
  },
};

const namespaceStrategy: Strategy = {
  prepareForCreate(object) {
    object.spec = { finalizers: ["kubernetes"] };
    object.status = { phase: "Active" };
  },
};

const SANDBOX_MODES = ["Running", "Suspended"];

const sandboxStrategy: Strategy = {
  prepareForCreate(object) {
    const spec = record(object.spec);
    spec.operatingMode ??= "Running";
    spec.shutdownPolicy ??= "Retain";
    object.spec = spec;
    delete object.status;
  },
  validate(object) {
    const spec = record(object.spec);
    const causes: StatusCause[] = [];
    if (!isRecord(spec.podTemplate)) causes.push(required("spec.podTemplate"));
    else causes.push(...validatePodSpec(spec.podTemplate.spec, "spec.podTemplate.spec", false));
    if (!SANDBOX_MODES.includes(String(spec.operatingMode))) causes.push(unsupported("spec.operatingMode", spec.operatingMode, SANDBOX_MODES));
    array(spec.volumeClaimTemplates).forEach((template, index) => {
      if (!record(record(template).metadata).name) causes.push(required(`spec.volumeClaimTemplates[${index}].metadata.name`));
      causes.push(...validateClaimSpec(record(template).spec, `spec.volumeClaimTemplates[${index}].spec`));
    });
    return causes;
  },
  /** The CRD's x-kubernetes-validations rule on spec: has(self.volumeClaimTemplates) == has(oldSelf.volumeClaimTemplates) && (!has(…) || self.… == oldSelf.…). */
  validateUpdate(object, old) {
    const now = record(object.spec).volumeClaimTemplates;
    const before = record(old.spec).volumeClaimTemplates;
    const unchanged = (now === undefined) === (before === undefined) && (now === undefined || deepEqual(now, before));
    return unchanged ? [] : [invalid("spec", "object", "volumeClaimTemplates is immutable")];
  },
};

const budgetStrategy: Strategy = {
  prepareForCreate(object) {
    object.status = { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0, observedGeneration: 0 };
  },
  validate(object) {
    const spec = record(object.spec);
    const causes: StatusCause[] = [];
    if (spec.minAvailable !== undefined && spec.maxUnavailable !== undefined) {
      causes.push(invalid("spec", spec, "minAvailable and maxUnavailable cannot be both set"));
    }
    return causes;
  },
};

const eventStrategy: Strategy = {
  validate(object) {
    const involved = record(object.involvedObject);
    return involved.name || involved.kind ? [] : [required("involvedObject")];
  },
};

const storageClassStrategy: Strategy = {
  validate: (object) => (object.provisioner ? [] : [required("provisioner")]),
  validateUpdate(object, old) {
    return deepEqual(object.parameters ?? {}, old.parameters ?? {}) && object.provisioner === old.provisioner
      ? []
      : [forbidden("parameters", "updates to parameters are forbidden.")];
  },
};

const snapshotStrategy: Strategy = {
  prepareForCreate(object) {
    delete object.status;
  },
  validate(object) {
    const source = record(record(object.spec).source);
    return source.persistentVolumeClaimName || source.volumeSnapshotContentName ? [] : [required("spec.source")];
  },
};

const SERVICE_TYPES = ["ClusterIP", "NodePort", "LoadBalancer", "ExternalName"];

/**
 * Services: the defaults of SetDefaults_Service and the REST strategy (the allocation of cluster
 * IPs and node ports is admission's, which sees the other Services). A headless Service
 * (clusterIP None) may have no ports, any other needs one.
 */
const serviceStrategy: Strategy = {
  prepareForCreate(object) {
    const spec = record(object.spec);
    spec.type ??= "ClusterIP";
    spec.sessionAffinity ??= "None";
    if (spec.type !== "ExternalName") {
      spec.internalTrafficPolicy ??= "Cluster";
      spec.ipFamilies ??= ["IPv4"];
      spec.ipFamilyPolicy ??= "SingleStack";
    }
    if (spec.type === "NodePort" || spec.type === "LoadBalancer") spec.externalTrafficPolicy ??= "Cluster";
    if (Array.isArray(spec.ports)) {
      spec.ports = spec.ports.map((port) => {
        const p = record(port);
        return { ...p, protocol: p.protocol ?? "TCP", targetPort: p.targetPort ?? p.port };
      });
    }
    object.spec = spec;
    object.status = { loadBalancer: {} };
  },
  prepareForUpdate(object, old) {
    const spec = record(object.spec);
    const oldSpec = record(old.spec);
    if (spec.clusterIP === undefined && spec.type === oldSpec.type) {
      spec.clusterIP = oldSpec.clusterIP;
      spec.clusterIPs ??= oldSpec.clusterIPs;
    }
    object.spec = spec;
  },
  validate(object) {
    const spec = record(object.spec);
    const causes: StatusCause[] = [];
    if (!SERVICE_TYPES.includes(String(spec.type))) causes.push(unsupported("spec.type", spec.type, SERVICE_TYPES));
    const ports = array(spec.ports);
    if (ports.length === 0 && spec.clusterIP !== "None" && spec.type !== "ExternalName") causes.push(required("spec.ports"));
    ports.forEach((port, index) => {
      const number = record(port).port;
      if (typeof number !== "number" || number < 1 || number > 65535) causes.push(invalid(`spec.ports[${index}].port`, number, "must be between 1 and 65535, inclusive"));
    });
    return causes;
  },
  validateUpdate(object, old) {
    const before = record(old.spec).clusterIP;
    const after = record(object.spec).clusterIP;
    return before !== undefined && after !== before ? [invalid("spec.clusterIPs[0]", after ?? "", "may not change once set")] : [];
  },
};

const SECRET_KEY = /^[-._a-zA-Z0-9]+$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** stringData is write-only: the API server folds it into data (base64), where it wins. */
function foldStringData(object: KubeObject): void {
  const stringData = record(object.stringData);
  if (Object.keys(stringData).length > 0) {
    object.data = { ...record(object.data), ...Object.fromEntries(Object.entries(stringData).map(([key, value]) => [key, Buffer.from(String(value), "utf8").toString("base64")])) };
  }
  delete object.stringData;
}

const secretStrategy: Strategy = {
  prepareForCreate(object) {
    foldStringData(object);
    object.type ??= "Opaque";
  },
  prepareForUpdate(object) {
    foldStringData(object);
  },
  validate(object) {
    const causes: StatusCause[] = [];
    for (const [key, value] of Object.entries(record(object.data))) {
      if (!SECRET_KEY.test(key)) causes.push(invalid(`data[${key}]`, key, "a valid config key must consist of alphanumeric characters, '-', '_' or '.'"));
      else if (typeof value !== "string" || !BASE64.test(value)) causes.push(invalid(`data[${key}]`, "<value omitted>", "must be base64 encoded"));
    }
    return causes;
  },
  validateUpdate(object, old) {
    return old.type !== undefined && object.type !== old.type ? [invalid("type", object.type, "field is immutable")] : [];
  },
};

/** A ConfigMap's keys follow the config-key rule; binaryData is base64, and no key is in both. */
const configMapStrategy: Strategy = {
  validate(object) {
    const data = record(object.data);
    const binary = record(object.binaryData);
    const causes: StatusCause[] = [];
    for (const [field, entries] of [["data", data], ["binaryData", binary]] as const) {
      for (const [key, value] of Object.entries(entries)) {
        if (!SECRET_KEY.test(key)) causes.push(invalid(`${field}[${key}]`, key, "a valid config key must consist of alphanumeric characters, '-', '_' or '.'"));
        else if (typeof value !== "string") causes.push(invalid(`${field}[${key}]`, value, "must be a string"));
        else if (field === "binaryData" && !BASE64.test(value)) causes.push(invalid(`${field}[${key}]`, "<value omitted>", "must be base64 encoded"));
      }
    }
    for (const key of Object.keys(binary)) if (Object.hasOwn(data, key)) causes.push(invalid(`data[${key}]`, key, "duplicate of key present in binaryData"));
    return causes;
  },
};

/**
 * Berth's own resources hold nothing: their schema's one rule is \`false\`, and a real API server
 * names no field when a rule on the whole object fails.
 */
const refuseEveryObject: Strategy = {
  validate: () => [{ reason: "FieldValueInvalid", field: "<nil>", message: `Invalid value: ${BERTH_RESOURCE_REFUSAL}` }],
};

/** What a Deployment and a ReplicaSet share: a selector that picks their template's pods, and a pod template. */
function validateWorkload(object: KubeObject): StatusCause[] {
  const spec = record(object.spec);
  const causes: StatusCause[] = [];
  const selector = spec.selector;
  if (!isRecord(selector)) causes.push(required("spec.selector"));
  else if (Object.keys(record(selector.matchLabels)).length === 0 && array(selector.matchExpressions).length === 0) {
    causes.push(invalid("spec.selector", selector, "empty selector is invalid for deployment"));
  } else {
    const labels = record(record(record(spec.template).metadata).labels) as Record<string, string>;
    let matches = false;
    try {
      matches = labelSelectorFromObject(selector as MetaLabelSelector).matches(labels);
    } catch (error) {
      causes.push(invalid("spec.selector", selector, (error as Error).message));
    }
    if (!matches) causes.push(invalid("spec.template.metadata.labels", labels, "`selector` does not match template `labels`"));
  }
  if (spec.replicas !== undefined && !(Number.isInteger(spec.replicas) && (spec.replicas as number) >= 0)) causes.push(invalid("spec.replicas", spec.replicas, "must be greater than or equal to 0"));
  const template = record(spec.template);
  causes.push(...validatePodSpec(template.spec, "spec.template.spec"));
  const restartPolicy = record(template.spec).restartPolicy;
  if (restartPolicy !== undefined && restartPolicy !== "Always") causes.push(unsupported("spec.template.spec.restartPolicy", restartPolicy, ["Always"]));
  return causes;
}

function defaultTemplate(spec: Record<string, unknown>): void {
  const template = record(spec.template);
  const podSpec = record(template.spec);
  defaultPodSpec(podSpec);
  template.spec = podSpec;
  spec.template = template;
}

const selectorImmutable = (object: KubeObject, old: StoredObject): StatusCause[] =>
  deepEqual(record(object.spec).selector, record(old.spec).selector) ? [] : [invalid("spec.selector", record(object.spec).selector, "field is immutable")];

/** SetDefaults_Deployment: one replica, a rolling update of 25%/25%, ten old ReplicaSets kept, ten minutes to progress. */
function defaultDeployment(object: KubeObject): void {
  const spec = record(object.spec);
  spec.replicas ??= 1;
  const strategy = record(spec.strategy);
  strategy.type ??= "RollingUpdate";
  if (strategy.type === "RollingUpdate") strategy.rollingUpdate = { maxUnavailable: "25%", maxSurge: "25%", ...record(strategy.rollingUpdate) };
  spec.strategy = strategy;
  spec.revisionHistoryLimit ??= 10;
  spec.progressDeadlineSeconds ??= 600;
  defaultTemplate(spec);
  object.spec = spec;
}

const deploymentStrategy: Strategy = {
  prepareForCreate(object) {
    defaultDeployment(object);
    object.status = {};
  },
  prepareForUpdate: (object) => defaultDeployment(object),
  validate: validateWorkload,
  validateUpdate: selectorImmutable,
};

const replicaSetStrategy: Strategy = {
  prepareForCreate(object) {
    const spec = record(object.spec);
    spec.replicas ??= 1;
    defaultTemplate(spec);
    object.spec = spec;
    object.status = { replicas: 0 };
  },
  prepareForUpdate(object) {
    defaultTemplate(record(object.spec));
  },
  validate: validateWorkload,
  validateUpdate: selectorImmutable,
};

const SERVED_CUSTOM_RESOURCES = RESOURCES.filter((definition) => definition.customResourceDefinition).map((definition) => `${definition.resource}.${definition.group}`);

/** The embedded cluster is built with its custom resources: their definitions can be read and updated in place, not added or taken away. */
const definitionStrategy: Strategy = {
  validate(object) {
    const name = object.metadata.name ?? "";
    const named = record(object.spec);
    const expected = `${String(record(named.names).plural ?? "")}.${String(named.group ?? "")}`;
    if (name !== expected) return [invalid("metadata.name", name, `must be spec.names.plural+"."+spec.group`)];
    return SERVED_CUSTOM_RESOURCES.includes(name) ? [] : [forbidden("spec", `the embedded cluster serves a fixed set of custom resources (${SERVED_CUSTOM_RESOURCES.join(", ")}) and cannot serve ${name}`)];
  },
  validateUpdate(object, old) {
    return servedShape(object.spec) === servedShape(old.spec) ? [] : [forbidden("spec", `the embedded cluster serves ${old.metadata.name} as it is built: its group, names, scope and versions cannot change`)];
  },
  deleteRefusal: (object) => `the embedded cluster cannot stop serving ${object.metadata.name}: its custom resources are built in`,
};

const STRATEGIES: Record<string, Strategy> = {
  deployments: deploymentStrategy,
  replicasets: replicaSetStrategy,
  customresourcedefinitions: definitionStrategy,
  secrets: secretStrategy,
  configmaps: configMapStrategy,
  pods: podStrategy,
  persistentvolumeclaims: claimStrategy,
  persistentvolumes: volumeStrategy,
  namespaces: namespaceStrategy,
  sandboxes: sandboxStrategy,
  poddisruptionbudgets: budgetStrategy,
  events: eventStrategy,
  storageclasses: storageClassStrategy,
  volumesnapshots: snapshotStrategy,
  services: serviceStrategy,
};

export function strategyFor(definition: ResourceDefinition): Strategy {
  if (definition.group === BERTH_API_GROUP) return refuseEveryObject;
  return STRATEGIES[definition.resource] ?? {};
}
