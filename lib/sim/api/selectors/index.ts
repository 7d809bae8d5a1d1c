// Label and field selectors as kube-apiserver parses and applies them to list and watch.

export { SelectorError, type SelectorStatus } from "./errors.ts";
export {
  everything,
  labelSelectorFromObject,
  labelSelectorFromSet,
  newRequirement,
  nothing,
  parseLabelSelector,
  requirementMatches,
  requirementToString,
  selectorToString,
  type LabelSelectorRequirement,
  type Labels,
  type MetaLabelSelector,
  type Operator,
  type Requirement,
  type Selector,
} from "./labels.ts";
export {
  escapeFieldValue,
  fieldLabelNotSupported,
  notAKnownFieldSelector,
  parseFieldRequirements,
  parseFieldSelector,
  unescapeFieldValue,
  type FieldGetter,
  type FieldRequirement,
  type FieldSelector,
  type SupportedFields,
} from "./fields.ts";
export {
  CLUSTER_CUSTOM_RESOURCE_FIELDS,
  CLUSTER_DEFAULT_FIELDS,
  EVENT_FIELDS,
  NAMESPACE_FIELDS,
  NAMESPACED_CUSTOM_RESOURCE_FIELDS,
  NAMESPACED_DEFAULT_FIELDS,
  NODE_FIELDS,
  PERSISTENT_VOLUME_CLAIM_FIELDS,
  PERSISTENT_VOLUME_FIELDS,
  POD_FIELDS,
  parseFieldSelectorFor,
  selectableFieldsFor,
  type SelectableFields,
} from "./field-sets.ts";
export { labelKeyErrors, labelValueErrors } from "./validation.ts";
