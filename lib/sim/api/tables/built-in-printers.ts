import { humanDuration } from "../../../domain/human-duration.ts";
import { isRecord, type KubeObject } from "../../objects.ts";
import { labelSelectorFromObject, type MetaLabelSelector } from "../selectors/index.ts";
import { ageColumn, column, nameColumn, type RowPrinter } from "./table-types.ts";

// The columns the API server prints built-in kinds with (kubernetes/pkg/printers/internalversion,
// every column — kubectl hides those of priority 1 unless asked for -o wide), written for the
// kinds the embedded cluster serves.

type Json = Record<string, unknown>;

const record = (value: unknown): Json => (isRecord(value) ? value : {});
const list = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isRecord) : []);
const text = (value: unknown): string => (typeof value === "string" ? value : "");
const orNone = (value: string) => (value === "" ? "<none>" : value);

/** How long ago a timestamp was, as the API server writes an Age cell. */
export function since(timestamp: unknown, now: Date): string {
  if (typeof timestamp !== "string" || timestamp === "") return "<unknown>";
  return humanDuration(now.getTime() - Date.parse(timestamp));
}

const age = (object: KubeObject, now: Date) => since(object.metadata.creationTimestamp, now);

const ACCESS_MODES: [string, string][] = [
  ["ReadWriteOnce", "RWO"],
  ["ReadOnlyMany", "ROX"],
  ["ReadWriteMany", "RWX"],
  ["ReadWriteOncePod", "RWOP"],
];

/** Access modes as kubectl abbreviates them, always in the same order. */
function accessModes(modes: unknown): string {
  const given = new Set(Array.isArray(modes) ? modes : []);
  return ACCESS_MODES.filter(([mode]) => given.has(mode)).map(([, short]) => short).join(",");
}

const storageClassOf = (object: KubeObject) =>
  text(record(object.spec).storageClassName) || text(object.metadata.annotations?.["volume.beta.kubernetes.io/storage-class"]);

function podStatus(pod: KubeObject): { ready: string; reason: string; restarts: number; lastRestart: string | null } {
  const spec = record(pod.spec);
  const status = record(pod.status);
  const initSpecs = list(spec.initContainers);
  const restartable = new Set(initSpecs.filter((container) => container.restartPolicy === "Always").map((container) => text(container.name)));
  const total = list(spec.containers).length + restartable.size;
  let ready = 0;
  let restarts = 0;
  let lastRestart: string | null = null;
  const noteRestart = (container: Json) => {
    const finished = text(record(record(container.lastState).terminated).finishedAt);
    if (finished && (lastRestart === null || finished > lastRestart)) lastRestart = finished;
  };
  let reason = text(status.reason) || text(status.phase);
  if (list(status.conditions).some((condition) => condition.type === "PodScheduled" && condition.reason === "SchedulingGated")) reason = "SchedulingGated";

  let initializing = false;
  const initStatuses = list(status.initContainerStatuses);
  for (const [index, container] of initStatuses.entries()) {
    restarts += Number(container.restartCount ?? 0);
    noteRestart(container);
    const state = record(container.state);
    const terminated = isRecord(state.terminated) ? state.terminated : null;
    const waiting = isRecord(state.waiting) ? state.waiting : null;
    if (terminated && terminated.exitCode === 0) continue;
    if (restartable.has(text(container.name)) && container.started === true) {
      if (container.ready === true) ready++;
      continue;
    }
    if (terminated) reason = `Init:${text(terminated.reason) || (terminated.signal ? `Signal:${String(terminated.signal)}` : `ExitCode:${String(terminated.exitCode)}`)}`;
    else if (waiting && text(waiting.reason) && waiting.reason !== "PodInitializing") reason = `Init:${text(waiting.reason)}`;
    else reason = `Init:${index}/${initSpecs.length}`;
    initializing = true;
    break;
  }

  const initialized = list(status.conditions).some((condition) => condition.type === "Initialized" && condition.status === "True");
  if (!initializing || initialized) {
    // Only the restartable init containers' restarts count once the pod is past initializing.
    restarts = initStatuses.filter((container) => restartable.has(text(container.name))).reduce((sum, container) => sum + Number(container.restartCount ?? 0), 0);
    let running = false;
    let failedReason = "";
    for (const container of list(status.containerStatuses).reverse()) {
      restarts += Number(container.restartCount ?? 0);
      noteRestart(container);
      const state = record(container.state);
      const waiting = record(state.waiting);
      const terminated = isRecord(state.terminated) ? state.terminated : null;
      if (text(waiting.reason)) reason = text(waiting.reason);
      else if (terminated) {
        reason = text(terminated.reason) || (terminated.signal ? `Signal:${String(terminated.signal)}` : `ExitCode:${String(terminated.exitCode)}`);
        if (terminated.exitCode !== 0) failedReason = reason;
      } else if (container.ready === true && isRecord(state.running)) {
        running = true;
        ready++;
      }
    }
    if (reason === "Completed") {
      const podReady = list(status.conditions).some((condition) => condition.type === "Ready" && condition.status === "True");
      if (running && podReady) reason = "Running";
      else if (failedReason) reason = failedReason;
      else if (running) reason = "NotReady";
    }
  }
  if (pod.metadata.deletionTimestamp) {
    if (status.reason === "NodeLost") reason = "Unknown";
    else if (!["Succeeded", "Failed"].includes(text(status.phase))) reason = "Terminating";
  }
  return { ready: `${ready}/${total}`, reason, restarts, lastRestart };
}

const pods: RowPrinter = {
  columns: [
    nameColumn(),
    column("Ready", "The aggregate readiness state of this pod for accepting traffic."),
    column("Status", "The aggregate status of the containers in this pod."),
    column("Restarts", "The number of times the containers in this pod have been restarted and when the last container in this pod has restarted."),
    ageColumn(),
    column("IP", "The IP address assigned to the pod.", { priority: 1 }),
    column("Node", "The name of the node the pod is assigned to.", { priority: 1 }),
    column("Nominated Node", "The node the pod is nominated to run on once preemption is done.", { priority: 1 }),
    column("Readiness Gates", "The readiness gates of the pod that are true.", { priority: 1 }),
  ],
  cells(pod, now) {
    const { ready, reason, restarts, lastRestart } = podStatus(pod);
    const spec = record(pod.spec);
    const status = record(pod.status);
    const gates = list(spec.readinessGates);
    const trueGates = gates.filter((gate) => list(status.conditions).some((condition) => condition.type === gate.conditionType && condition.status === "True")).length;
    return [
      pod.metadata.name ?? "",
      ready,
      reason,
      restarts !== 0 && lastRestart ? `${restarts} (${since(lastRestart, now)} ago)` : String(restarts),
      age(pod, now),
      orNone(text(list(status.podIPs)[0]?.ip) || text(status.podIP)),
      orNone(text(spec.nodeName)),
      orNone(text(status.nominatedNodeName)),
      gates.length === 0 ? "<none>" : `${trueGates}/${gates.length}`,
    ];
  },
  conditions(pod) {
    const phase = text(record(pod.status).phase);
    if (phase === "Succeeded") return [{ type: "Completed", status: "True", reason: "Succeeded", message: "The pod has completed successfully." }];
    if (phase === "Failed") return [{ type: "Completed", status: "True", reason: "Failed", message: "The pod failed." }];
    return [];
  },
};

const nodes: RowPrinter = {
  columns: [
    nameColumn(),
    column("Status", "The status of the node"),
    column("Roles", "The roles of the node"),
    ageColumn(),
    column("Version", "Kubelet Version reported by the node."),
    column("Internal-IP", "List of addresses reachable to the node. Queried from cloud provider, if available.", { priority: 1 }),
    column("External-IP", "List of addresses reachable to the node. Queried from cloud provider, if available.", { priority: 1 }),
    column("OS-Image", "OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).", { priority: 1 }),
    column("Kernel-Version", "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).", { priority: 1 }),
    column("Container-Runtime", "Container runtime version reported by the node through runtime remote API (e.g. containerd://1.4.2).", { priority: 1 }),
  ],
  cells(node, now) {
    const spec = record(node.spec);
    const status = record(node.status);
    const ready = list(status.conditions).find((condition) => condition.type === "Ready");
    const states = [ready ? (ready.status === "True" ? "Ready" : "NotReady") : "Unknown", ...(spec.unschedulable === true ? ["SchedulingDisabled"] : [])];
    const roles = new Set<string>();
    for (const [key, value] of Object.entries(node.metadata.labels ?? {})) {
      if (key.startsWith("node-role.kubernetes.io/") && key.length > "node-role.kubernetes.io/".length) roles.add(key.slice("node-role.kubernetes.io/".length));
      else if (key === "kubernetes.io/role" && value !== "") roles.add(value);
    }
    const info = record(status.nodeInfo);
    const address = (type: string) => orNone(text(list(status.addresses).find((one) => one.type === type)?.address));
    const known = (value: string) => value || "<unknown>";
    return [
      node.metadata.name ?? "",
      states.join(","),
      orNone([...roles].sort().join(",")),
      age(node, now),
      text(info.kubeletVersion),
      address("InternalIP"),
      address("ExternalIP"),
      known(text(info.osImage)),
      known(text(info.kernelVersion)),
      known(text(info.containerRuntimeVersion)),
    ];
  },
};

const events: RowPrinter = {
  columns: [
    column("Last Seen", "Time when last this event was observed"),
    column("Type", "Type of this event (Normal, Warning), new types could be added in the future."),
    column("Reason", "This should be a short, machine understandable string that gives the reason for this event being generated."),
    column("Object", "The object that this event is about. Mapped form the involvedObject."),
    column("Subobject", "The subobject that this event is about. Mapped from the involvedObject's fieldPath.", { priority: 1 }),
    column("Source", "The component reporting this event. Should be a short machine understandable string.", { priority: 1 }),
    column("Message", "A human-readable description of the status of this operation."),
    column("First Seen", "The time at which the event was first recorded.", { priority: 1 }),
    column("Count", "The number of times this event has occurred.", { priority: 1 }),
    column("Name", "Name must be unique within a namespace.", { priority: 1, format: "name" }),
  ],
  cells(event, now) {
    const involved = record(event.involvedObject);
    const source = record(event.source);
    const series = isRecord(event.series) ? event.series : null;
    const first = event.firstTimestamp ? since(event.firstTimestamp, now) : since(event.eventTime, now);
    const last = series ? since(series.lastObservedTime, now) : event.lastTimestamp ? since(event.lastTimestamp, now) : first;
    const count = series ? Number(series.count ?? 0) : Number(event.count ?? 0) || 1;
    const kind = text(involved.kind).toLowerCase();
    const component = text(source.component) || text(event.reportingComponent);
    const host = text(source.host) || text(event.reportingInstance);
    return [
      last,
      text(event.type),
      text(event.reason),
      text(involved.name) ? `${kind}/${text(involved.name)}` : kind,
      text(involved.fieldPath),
      host ? `${component}, ${host}` : component,
      text(event.message).trim(),
      first,
      count,
      event.metadata.name ?? "",
    ];
  },
};

const namespaces: RowPrinter = {
  columns: [nameColumn(), column("Status", "The status of the namespace"), ageColumn()],
  cells: (namespace, now) => [namespace.metadata.name ?? "", text(record(namespace.status).phase), age(namespace, now)],
};

const phaseOf = (object: KubeObject) => (object.metadata.deletionTimestamp ? "Terminating" : text(record(object.status).phase));

const persistentVolumeClaims: RowPrinter = {
  columns: [
    nameColumn(),
    column("Status", "Phase represents the current phase of PersistentVolumeClaim."),
    column("Volume", "VolumeName is the binding reference to the PersistentVolume backing this claim."),
    column("Capacity", "Capacity represents the actual resources of the underlying volume."),
    column("Access Modes", "AccessModes contains the actual access modes the volume backing the PVC has."),
    column("StorageClass", "StorageClassName is the name of the StorageClass required by the claim."),
    column("VolumeAttributesClass", "VolumeAttributesClassName is the name of the VolumeAttributesClass the claim uses."),
    ageColumn(),
    column("VolumeMode", "VolumeMode defines what type of volume is required by the claim.", { priority: 1 }),
  ],
  cells(claim, now) {
    const spec = record(claim.spec);
    const status = record(claim.status);
    const bound = text(spec.volumeName) !== "";
    return [
      claim.metadata.name ?? "",
      phaseOf(claim),
      text(spec.volumeName),
      bound ? text(record(status.capacity).storage) : "",
      bound ? accessModes(status.accessModes) : "",
      storageClassOf(claim),
      text(spec.volumeAttributesClassName) || "<unset>",
      age(claim, now),
      text(spec.volumeMode) || "<unset>",
    ];
  },
};

const persistentVolumes: RowPrinter = {
  columns: [
    nameColumn(),
    column("Capacity", "A description of the persistent volume's resources and capacity."),
    column("Access Modes", "AccessModes contains all ways the volume can be mounted."),
    column("Reclaim Policy", "What happens to a persistent volume when released from its claim."),
    column("Status", "Phase indicates if a volume is available, bound to a claim, or released by a claim."),
    column("Claim", "ClaimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim."),
    column("StorageClass", "StorageClassName is the name of StorageClass to which this persistent volume belongs."),
    column("VolumeAttributesClass", "Name of VolumeAttributesClass to which this persistent volume belongs."),
    column("Reason", "Reason is a brief CamelCase string that describes any failure."),
    ageColumn(),
    column("VolumeMode", "Define if a volume is intended to be used with a formatted filesystem or to remain in raw block state.", { priority: 1 }),
  ],
  cells(volume, now) {
    const spec = record(volume.spec);
    const claim = isRecord(spec.claimRef) ? spec.claimRef : null;
    return [
      volume.metadata.name ?? "",
      text(record(spec.capacity).storage),
      accessModes(spec.accessModes),
      text(spec.persistentVolumeReclaimPolicy),
      phaseOf(volume),
      claim ? `${text(claim.namespace)}/${text(claim.name)}` : "",
      storageClassOf(volume),
      text(spec.volumeAttributesClassName) || "<unset>",
      text(record(volume.status).reason),
      age(volume, now),
      text(spec.volumeMode) || "<unset>",
    ];
  },
};

const storageClasses: RowPrinter = {
  columns: [
    nameColumn(),
    column("Provisioner", "Provisioner indicates the type of the provisioner."),
    column("ReclaimPolicy", "Dynamically provisioned PersistentVolumes of this storage class are created with this reclaimPolicy. Defaults to Delete."),
    column("VolumeBindingMode", "VolumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound. When unset, VolumeBindingImmediate is used."),
    column("AllowVolumeExpansion", "AllowVolumeExpansion shows whether the storage class allow volume expand."),
    ageColumn(),
  ],
  cells(storageClass, now) {
    const isDefault = ["storageclass.kubernetes.io/is-default-class", "storageclass.beta.kubernetes.io/is-default-class"].some((key) => storageClass.metadata.annotations?.[key] === "true");
    return [
      `${storageClass.metadata.name ?? ""}${isDefault ? " (default)" : ""}`,
      text(storageClass.provisioner),
      text(storageClass.reclaimPolicy) || "Delete",
      text(storageClass.volumeBindingMode) || "Immediate",
      storageClass.allowVolumeExpansion === true,
      age(storageClass, now),
    ];
  },
};

const intOrString = (value: unknown) => (typeof value === "number" || typeof value === "string" ? String(value) : "N/A");

const podDisruptionBudgets: RowPrinter = {
  columns: [
    nameColumn(),
    column("Min Available", "The minimum number of pods that must be available."),
    column("Max Unavailable", "The maximum number of pods that may be unavailable."),
    column("Allowed Disruptions", "Calculated number of pods that may be disrupted at this time.", { type: "integer" }),
    ageColumn(),
  ],
  cells(budget, now) {
    const spec = record(budget.spec);
    return [budget.metadata.name ?? "", intOrString(spec.minAvailable), intOrString(spec.maxUnavailable), Number(record(budget.status).disruptionsAllowed ?? 0), age(budget, now)];
  },
};

const dataCount = (object: KubeObject) => Object.keys(record(object.data)).length + Object.keys(record(object.binaryData)).length;

const configMaps: RowPrinter = {
  columns: [nameColumn(), column("Data", "The number of entries in the configmap."), ageColumn()],
  cells: (configMap, now) => [configMap.metadata.name ?? "", dataCount(configMap), age(configMap, now)],
};

const secrets: RowPrinter = {
  columns: [nameColumn(), column("Type", "The type of the secret"), column("Data", "The number of entries in the secret."), ageColumn()],
  cells: (secret, now) => [secret.metadata.name ?? "", text(secret.type) || "Opaque", Object.keys(record(secret.data)).length, age(secret, now)],
};

const serviceAccounts: RowPrinter = {
  columns: [nameColumn(), ageColumn()],
  cells: (account, now) => [account.metadata.name ?? "", age(account, now)],
};

const services: RowPrinter = {
  columns: [
    nameColumn(),
    column("Type", "The type of the service."),
    column("Cluster-IP", "The IP address of the service."),
    column("External-IP", "The external IP address of the service."),
    column("Port(s)", "The ports of the service."),
    ageColumn(),
    column("Selector", "Route service traffic to pods with label keys and values matching this selector.", { priority: 1 }),
  ],
  cells(service, now) {
    const spec = record(service.spec);
    const ports = list(spec.ports).map((port) => `${String(port.port)}${port.nodePort ? `:${String(port.nodePort)}` : ""}/${text(port.protocol) || "TCP"}`).join(",");
    const external = [...(Array.isArray(spec.externalIPs) ? spec.externalIPs : []), ...list(record(record(service.status).loadBalancer).ingress).map((ingress) => text(ingress.ip) || text(ingress.hostname))];
    const selector = Object.entries(record(spec.selector)).map(([key, value]) => `${key}=${text(value)}`).sort().join(",");
    return [
      service.metadata.name ?? "",
      text(spec.type) || "ClusterIP",
      orNone(text((Array.isArray(spec.clusterIPs) ? spec.clusterIPs[0] : undefined) ?? spec.clusterIP)),
      external.length > 0 ? external.join(",") : spec.type === "LoadBalancer" ? "<pending>" : "<none>",
      orNone(ports),
      age(service, now),
      orNone(selector),
    ];
  },
};

const leases: RowPrinter = {
  columns: [nameColumn(), column("Holder", "The holder of the lease."), ageColumn()],
  cells: (lease, now) => [lease.metadata.name ?? "", text(record(lease.spec).holderIdentity), age(lease, now)],
};

const networkPolicies: RowPrinter = {
  columns: [
    nameColumn(),
    column(
      "Pod-Selector",
      "podSelector selects the pods to which this NetworkPolicy object applies. The array of rules is applied to any pods selected by this field. An empty selector matches all pods in the policy's namespace. Multiple network policies can select the same set of pods. In this case, the ingress rules for each are combined additively. This field is optional. If it is not specified, it defaults to an empty selector.",
    ),
    ageColumn(),
  ],
  cells(policy, now) {
    let selector: string;
    try {
      selector = labelSelectorFromObject(record(record(policy.spec).podSelector) as MetaLabelSelector).toString();
    } catch {
      selector = "<error>";
    }
    return [policy.metadata.name ?? "", orNone(selector), age(policy, now)];
  },
};

function subjectsOf(binding: KubeObject): { users: string; groups: string; serviceAccounts: string } {
  const subjects = list(binding.subjects);
  const named = (kind: string) => subjects.filter((subject) => subject.kind === kind);
  return {
    users: named("User").map((subject) => text(subject.name)).join(", "),
    groups: named("Group").map((subject) => text(subject.name)).join(", "),
    serviceAccounts: named("ServiceAccount").map((subject) => `${text(subject.namespace)}/${text(subject.name)}`).join(", "),
  };
}

const bindings: RowPrinter = {
  columns: [
    nameColumn(),
    column("Role", "Role references the role being granted."),
    ageColumn(),
    column("Users", "Users in the binding", { priority: 1 }),
    column("Groups", "Groups in the binding", { priority: 1 }),
    column("ServiceAccounts", "ServiceAccounts in the binding", { priority: 1 }),
  ],
  cells(binding, now) {
    const roleRef = record(binding.roleRef);
    const { users, groups, serviceAccounts } = subjectsOf(binding);
    return [binding.metadata.name ?? "", `${text(roleRef.kind)}/${text(roleRef.name)}`, age(binding, now), users, groups, serviceAccounts];
  },
};

/** The containers, images and selector columns a workload prints with -o wide. */
const workloadColumns = () => [
  column("Containers", "Names of each container in the template.", { priority: 1 }),
  column("Images", "Images referenced by each container in the template.", { priority: 1 }),
  column("Selector", "Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.", { priority: 1 }),
];

function workloadCells(workload: KubeObject): string[] {
  const containers = list(record(record(record(workload.spec).template).spec).containers);
  const selector = record(record(workload.spec).selector);
  const labels = Object.entries(record(selector.matchLabels)).map(([key, value]) => `${key}=${text(value)}`);
  return [containers.map((container) => text(container.name)).join(","), containers.map((container) => text(container.image)).join(","), orNone(labels.join(","))];
}

const count = (object: KubeObject, field: string) => Number(record(object.status)[field] ?? 0);

const deployments: RowPrinter = {
  columns: [
    nameColumn(),
    column("Ready", "Number of the pod with ready state"),
    column("Up-to-date", "Total number of non-terminated pods targeted by this deployment that have the desired template spec."),
    column("Available", "Total number of available pods (ready for at least minReadySeconds) targeted by this deployment."),
    ageColumn(),
    ...workloadColumns(),
  ],
  cells: (deployment, now) => [
    deployment.metadata.name ?? "",
    `${count(deployment, "readyReplicas")}/${Number(record(deployment.spec).replicas ?? 0)}`,
    count(deployment, "updatedReplicas"),
    count(deployment, "availableReplicas"),
    age(deployment, now),
    ...workloadCells(deployment),
  ],
};

const replicaSets: RowPrinter = {
  columns: [
    nameColumn(),
    column("Desired", "Number of desired pods.", { type: "integer" }),
    column("Current", "Number of actual replicas.", { type: "integer" }),
    column("Ready", "Number of ready replicas.", { type: "integer" }),
    ageColumn(),
    ...workloadColumns(),
  ],
  cells: (replicaSet, now) => [
    replicaSet.metadata.name ?? "",
    Number(record(replicaSet.spec).replicas ?? 0),
    count(replicaSet, "replicas"),
    count(replicaSet, "readyReplicas"),
    age(replicaSet, now),
    ...workloadCells(replicaSet),
  ],
};

/** By `group/resource` ("" for the core group). Kinds not here get the default Name and Created At. */
export const BUILT_IN_PRINTERS: Record<string, RowPrinter> = {
  "/pods": pods,
  "/nodes": nodes,
  "/events": events,
  "/namespaces": namespaces,
  "/persistentvolumeclaims": persistentVolumeClaims,
  "/persistentvolumes": persistentVolumes,
  "/configmaps": configMaps,
  "/secrets": secrets,
  "/serviceaccounts": serviceAccounts,
  "/services": services,
  "storage.k8s.io/storageclasses": storageClasses,
  "policy/poddisruptionbudgets": podDisruptionBudgets,
  "coordination.k8s.io/leases": leases,
  "networking.k8s.io/networkpolicies": networkPolicies,
  "rbac.authorization.k8s.io/rolebindings": bindings,
  "rbac.authorization.k8s.io/clusterrolebindings": bindings,
  "apps/deployments": deployments,
  "apps/replicasets": replicaSets,
};

