import { isRecord, type KubeObject } from "../objects.ts";

// The matching rules the scheduler, the volume binder and the taint managers share, written as
// pure functions over plain objects: a node selector term against a node, a pod's nodeSelector
// and required node affinity, a PersistentVolume's node affinity, a label selector, and taints
// against tolerations. They follow k8s.io/component-helpers/scheduling/corev1 and
// k8s.io/api/core/v1 (Toleration.ToleratesTaint) so that edge cases decide the same way.

export type TaintEffect = "NoSchedule" | "PreferNoSchedule" | "NoExecute";

export interface Taint {
  key: string;
  value?: string;
  effect: TaintEffect;
  timeAdded?: string;
}

export interface Toleration {
  key?: string;
  operator?: "Exists" | "Equal" | "";
  value?: string;
  effect?: TaintEffect | "";
  tolerationSeconds?: number;
}

export interface NodeSelectorRequirement {
  key: string;
  operator: "In" | "NotIn" | "Exists" | "DoesNotExist" | "Gt" | "Lt";
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

export interface LabelSelectorRequirement {
  key: string;
  operator: "In" | "NotIn" | "Exists" | "DoesNotExist";
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

/** The node taint the NodeUnschedulable plugin checks pods against (cordoned nodes carry it too). */
export const UNSCHEDULABLE_TAINT: Taint = { key: "node.kubernetes.io/unschedulable", effect: "NoSchedule" };

const record = (value: unknown): Record<string, unknown> => (isRecord(value) ? value : {});
const array = <T>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);

export const labelsOf = (object: KubeObject): Record<string, string> => object.metadata.labels ?? {};
export const taintsOf = (node: KubeObject): Taint[] => array<Taint>(record(node.spec).taints);
export const tolerationsOf = (pod: KubeObject): Toleration[] => array<Toleration>(record(pod.spec).tolerations);

/** Toleration.ToleratesTaint: an empty effect or key matches all; an empty operator means Equal. */
export function toleratesTaint(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  switch (toleration.operator ?? "") {
    case "":
    case "Equal":
      return (toleration.value ?? "") === (taint.value ?? "");
    case "Exists":
      return true;
    default:
      return false;
  }
}

export function tolerates(tolerations: Toleration[], taint: Taint): boolean {
  return tolerations.some((toleration) => toleratesTaint(toleration, taint));
}

/**
 * The first taint (in the node's order) with one of `effects` that no toleration tolerates, as
 * FindMatchingUntoleratedTaint returns it. The scheduler asks about NoSchedule and NoExecute.
 */
export function findUntoleratedTaint(
  taints: Taint[],
  tolerations: Toleration[],
  effects: TaintEffect[] = ["NoSchedule", "NoExecute"],
): Taint | undefined {
  return taints.find((taint) => effects.includes(taint.effect) && !tolerates(tolerations, taint));
}

function parseInteger(text: string | undefined): number | null {
  if (text === undefined || !/^-?\d+$/.test(text)) return null;
  return Number(text);
}

/** One requirement against a set of labels (or of fields, for matchFields). */
export function requirementMatches(requirement: NodeSelectorRequirement | LabelSelectorRequirement, labels: Record<string, string>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, requirement.key);
  const value = has ? labels[requirement.key] : undefined;
  const values = requirement.values ?? [];
  switch (requirement.operator) {
    case "In":
      return has && values.includes(value!);
    case "NotIn":
      return !has || !values.includes(value!);
    case "Exists":
      return has;
    case "DoesNotExist":
      return !has;
    case "Gt":
    case "Lt": {
      // Both sides must be integers; the requirement holds exactly one value.
      const actual = parseInteger(value);
      const bound = values.length === 1 ? parseInteger(values[0]) : null;
      if (actual === null || bound === null) return false;
      return requirement.operator === "Gt" ? actual > bound : actual < bound;
    }
    default:
      return false;
  }
}

/** A term holds when all its expressions and fields hold; a term with neither matches nothing. */
export function termMatches(term: NodeSelectorTerm, node: KubeObject): boolean {
  const expressions = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (expressions.length === 0 && fields.length === 0) return false;
  const labels = labelsOf(node);
  // metadata.name is the only field a node selector may name.
  const nodeFields = { "metadata.name": node.metadata.name ?? "" };
  return expressions.every((requirement) => requirementMatches(requirement, labels)) && fields.every((requirement) => requirementMatches(requirement, nodeFields));
}

/** Terms are ORed: MatchNodeSelectorTerms. */
export function termsMatch(terms: NodeSelectorTerm[], node: KubeObject): boolean {
  return terms.some((term) => termMatches(term, node));
}

/** The pod's spec.nodeSelector (every pair must be a node label) and its required node affinity. */
export function podMatchesNode(pod: KubeObject, node: KubeObject): boolean {
  const spec = record(pod.spec);
  const labels = labelsOf(node);
  const selector = record(spec.nodeSelector) as Record<string, string>;
  for (const [key, value] of Object.entries(selector)) if (labels[key] !== value) return false;
  const required = record(record(record(spec.affinity).nodeAffinity).requiredDuringSchedulingIgnoredDuringExecution);
  if (Object.keys(required).length === 0) return true;
  return termsMatch(array<NodeSelectorTerm>(required.nodeSelectorTerms), node);
}

/** A PV's spec.nodeAffinity.required: a PV without one is reachable from every node. */
export function volumeMatchesNode(volume: KubeObject, node: KubeObject): boolean {
  const required = record(record(record(volume.spec).nodeAffinity).required);
  if (Object.keys(required).length === 0) return true;
  return termsMatch(array<NodeSelectorTerm>(required.nodeSelectorTerms), node);
}

/** metav1.LabelSelector: matchLabels and matchExpressions ANDed; an empty selector matches all. */
export function labelSelectorMatches(selector: LabelSelector | undefined, labels: Record<string, string>): boolean {
  if (!selector) return true;
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) if (labels[key] !== value) return false;
  return (selector.matchExpressions ?? []).every((requirement) => requirementMatches(requirement, labels));
}

/** The node affinity a node-pinned provisioner writes on a PV: required on kubernetes.io/hostname. */
export function hostnameAffinity(hostname: string): { required: { nodeSelectorTerms: NodeSelectorTerm[] } } {
  return { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: "kubernetes.io/hostname", operator: "In", values: [hostname] }] }] } };
}

/** What a node-pinned provisioner puts in that affinity: the hostname label, else the node name. */
export function hostnameOf(node: KubeObject): string {
  return labelsOf(node)["kubernetes.io/hostname"] ?? node.metadata.name ?? "";
}
