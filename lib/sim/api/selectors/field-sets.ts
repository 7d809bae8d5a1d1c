// The field selectors kube-apiserver supports per kind: the field label conversion functions of
// pkg/apis/core/v1/conversion.go (what is accepted) and the registries' ToSelectableFields (what
// each field reads), plus the two generic cases:
// - kinds without their own conversion (PVC, PV, PDB, Lease, StorageClass…) accept
//   metadata.name and metadata.namespace (runtime.DefaultMetaV1FieldSelectorConversion);
// - custom resources accept metadata.name, and metadata.namespace when namespaced
//   (apiextensions crConverter).
// Note that Node and Namespace accept metadata.name but NOT metadata.namespace.

import { fieldLabelNotSupported, notAKnownFieldSelector, parseFieldSelector, type FieldGetter, type FieldSelector, type SupportedFields } from "./fields.ts";

export interface SelectableFields {
  readonly fields: SupportedFields<unknown>;
  readonly unsupportedMessage: (label: string) => string;
}

function at(object: unknown, ...path: Array<string | number>): unknown {
  let current = object;
  for (const step of path) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string | number, unknown>)[step];
  }
  return current;
}

/** A string field ("" when absent or not a string, as the typed object would read). */
const text =
  (...path: string[]): FieldGetter<unknown> =>
  (object) => {
    const value = at(object, ...path);
    return typeof value === "string" ? value : undefined;
  };

/** A bool field as fmt.Sprint / strconv.FormatBool prints it; absent is false. */
const bool =
  (...path: string[]): FieldGetter<unknown> =>
  (object) =>
    at(object, ...path) === true ? "true" : "false";

/** generic.ObjectMetaFieldsSet */
const objectMetaFields = (namespaced: boolean): Record<string, FieldGetter<unknown>> => ({
  "metadata.name": text("metadata", "name"),
  ...(namespaced ? { "metadata.namespace": text("metadata", "namespace") } : {}),
});

/** The default conversion accepts metadata.namespace even for cluster-scoped kinds; it reads "". */
const defaultConversionFields = (namespaced: boolean): Record<string, FieldGetter<unknown>> => ({
  "metadata.name": text("metadata", "name"),
  "metadata.namespace": namespaced ? text("metadata", "namespace") : () => "",
});

const podIP: FieldGetter<unknown> = (object) => {
  // The registry reads status.podIPs[0].ip.
  const first = at(object, "status", "podIPs", 0, "ip");
  if (typeof first === "string") return first;
  return text("status", "podIP")(object);
};

export const POD_FIELDS: SelectableFields = {
  fields: {
    ...objectMetaFields(true),
    "spec.nodeName": text("spec", "nodeName"),
    // Old v1 clients send spec.host; the conversion maps it to spec.nodeName.
    "spec.host": text("spec", "nodeName"),
    "spec.restartPolicy": text("spec", "restartPolicy"),
    "spec.schedulerName": text("spec", "schedulerName"),
    "spec.serviceAccountName": text("spec", "serviceAccountName"),
    "spec.hostNetwork": bool("spec", "hostNetwork"),
    "status.phase": text("status", "phase"),
    "status.podIP": podIP,
    // Accepted by the conversion (for the downward API) but not in the selectable set: reads "".
    "status.podIPs": () => "",
    "status.nominatedNodeName": text("status", "nominatedNodeName"),
  },
  unsupportedMessage: fieldLabelNotSupported,
};

export const NODE_FIELDS: SelectableFields = {
  fields: { ...objectMetaFields(false), "spec.unschedulable": bool("spec", "unschedulable") },
  unsupportedMessage: fieldLabelNotSupported,
};

export const NAMESPACE_FIELDS: SelectableFields = {
  fields: { ...objectMetaFields(false), "status.phase": text("status", "phase") },
  unsupportedMessage: fieldLabelNotSupported,
};

export const EVENT_FIELDS: SelectableFields = {
  fields: {
    ...objectMetaFields(true),
    "involvedObject.kind": text("involvedObject", "kind"),
    "involvedObject.namespace": text("involvedObject", "namespace"),
    "involvedObject.name": text("involvedObject", "name"),
    "involvedObject.uid": text("involvedObject", "uid"),
    "involvedObject.apiVersion": text("involvedObject", "apiVersion"),
    "involvedObject.resourceVersion": text("involvedObject", "resourceVersion"),
    "involvedObject.fieldPath": text("involvedObject", "fieldPath"),
    reason: text("reason"),
    // core/v1 reportingComponent (internal ReportingController).
    reportingComponent: text("reportingComponent"),
    // source is Event.source.component.
    source: text("source", "component"),
    type: text("type"),
  },
  unsupportedMessage: fieldLabelNotSupported,
};

/** PVCs, PDBs, Leases: no conversion of their own. */
export const NAMESPACED_DEFAULT_FIELDS: SelectableFields = { fields: defaultConversionFields(true), unsupportedMessage: notAKnownFieldSelector };

/** PVs, StorageClasses: no conversion of their own. */
export const CLUSTER_DEFAULT_FIELDS: SelectableFields = { fields: defaultConversionFields(false), unsupportedMessage: notAKnownFieldSelector };

export const PERSISTENT_VOLUME_CLAIM_FIELDS = NAMESPACED_DEFAULT_FIELDS;
export const PERSISTENT_VOLUME_FIELDS = CLUSTER_DEFAULT_FIELDS;

/** A namespaced custom resource, e.g. agents.x-k8s.io Sandbox or a VolumeSnapshot. */
export const NAMESPACED_CUSTOM_RESOURCE_FIELDS: SelectableFields = { fields: objectMetaFields(true), unsupportedMessage: fieldLabelNotSupported };

/** A cluster-scoped custom resource, e.g. a VolumeSnapshotClass. */
export const CLUSTER_CUSTOM_RESOURCE_FIELDS: SelectableFields = { fields: objectMetaFields(false), unsupportedMessage: fieldLabelNotSupported };

const BUILT_IN: Readonly<Record<string, SelectableFields>> = {
  "/Pod": POD_FIELDS,
  "/Node": NODE_FIELDS,
  "/Namespace": NAMESPACE_FIELDS,
  "/Event": EVENT_FIELDS,
  "/PersistentVolumeClaim": PERSISTENT_VOLUME_CLAIM_FIELDS,
  "/PersistentVolume": PERSISTENT_VOLUME_FIELDS,
  "policy/PodDisruptionBudget": NAMESPACED_DEFAULT_FIELDS,
  "coordination.k8s.io/Lease": NAMESPACED_DEFAULT_FIELDS,
  "storage.k8s.io/StorageClass": CLUSTER_DEFAULT_FIELDS,
};

/**
 * The field selectors a kind supports. Kinds the table does not know are treated as custom
 * resources (metadata.name, plus metadata.namespace when `namespaced`, the default).
 */
export function selectableFieldsFor(apiVersion: string, kind: string, options: { namespaced?: boolean } = {}): SelectableFields {
  const slash = apiVersion.indexOf("/");
  const key = `${slash < 0 ? "" : apiVersion.slice(0, slash)}/${kind}`;
  if (Object.hasOwn(BUILT_IN, key)) return BUILT_IN[key] ?? NAMESPACED_CUSTOM_RESOURCE_FIELDS;
  return options.namespaced === false ? CLUSTER_CUSTOM_RESOURCE_FIELDS : NAMESPACED_CUSTOM_RESOURCE_FIELDS;
}

/** parseFieldSelector with a kind's fields and its own "unsupported" message. */
export function parseFieldSelectorFor(text: string, selectable: SelectableFields): FieldSelector<unknown> {
  return parseFieldSelector(text, selectable.fields, selectable.unsupportedMessage);
}
