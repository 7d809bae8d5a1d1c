import { isRecord, type StoredObject } from "../objects.ts";
import { refs } from "../k8s-objects.ts";
import type { ObjectStore } from "../store/object-store.ts";
import { MASTERS, type UserInfo } from "./users.ts";

// Kubernetes' RBAC authorizer over the Roles, ClusterRoles and bindings in the object store:
// rules match API groups × resources (with subresources and `*`) × verbs, optionally limited to
// resourceNames; ClusterRoles may also grant non-resource URLs; a RoleBinding to a ClusterRole
// grants it in its own namespace only; aggregated ClusterRoles take the rules of the ClusterRoles
// their selectors match. Permissions only add: there is no deny. system:masters may do anything,
// as the real API server's own authorizer says before RBAC is asked.

export interface ResourceAttributes {
  verb: string;
  group: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
}

export interface NonResourceAttributes {
  verb: string;
  path: string;
}

export type Attributes = { kind: "resource"; resource: ResourceAttributes } | { kind: "non-resource"; nonResource: NonResourceAttributes };

export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface Decision {
  allowed: boolean;
  /** As the RBAC authorizer gives it: which binding of which role to which subject allowed it. */
  reason: string;
}

interface Subject {
  kind: string;
  name: string;
  namespace?: string;
  apiGroup?: string;
}

const stringList = (value: unknown) => (Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : []);

function rulesOf(role: StoredObject | undefined): PolicyRule[] {
  if (!role || !Array.isArray(role.rules)) return [];
  return role.rules.filter(isRecord).map((rule) => ({
    verbs: stringList(rule.verbs),
    apiGroups: stringList(rule.apiGroups),
    resources: stringList(rule.resources),
    resourceNames: stringList(rule.resourceNames),
    nonResourceURLs: stringList(rule.nonResourceURLs),
  }));
}

function labelsMatch(labels: Record<string, string> | undefined, selector: unknown): boolean {
  if (!isRecord(selector)) return false;
  const matchLabels = isRecord(selector.matchLabels) ? selector.matchLabels : {};
  const expressions = Array.isArray(selector.matchExpressions) ? selector.matchExpressions.filter(isRecord) : [];
  const own = labels ?? {};
  const labelsOk = Object.entries(matchLabels).every(([key, value]) => own[key] === value);
  const expressionsOk = expressions.every((expression) => {
    const key = String(expression.key);
    const values = stringList(expression.values);
    switch (expression.operator) {
      case "In":
        return key in own && values.includes(own[key]!);
      case "NotIn":
        return !(key in own) || !values.includes(own[key]!);
      case "Exists":
        return key in own;
      case "DoesNotExist":
        return !(key in own);
      default:
        return false;
    }
  });
  return labelsOk && expressionsOk;
}

const matchesValue = (values: string[] | undefined, value: string) => (values ?? []).some((one) => one === "*" || one === value);

/** Whether a rule grants a request on a resource (k8s.io/kubernetes/plugin/pkg/auth/authorizer/rbac RuleAllows). */
export function ruleAllowsResource(rule: PolicyRule, attributes: ResourceAttributes): boolean {
  if (!matchesValue(rule.verbs, attributes.verb) || !matchesValue(rule.apiGroups, attributes.group)) return false;
  const combined = attributes.subresource ? `${attributes.resource}/${attributes.subresource}` : attributes.resource;
  const resources = rule.resources ?? [];
  const resourceOk = resources.some(
    (one) => one === "*" || one === combined || (attributes.subresource !== undefined && one === `*/${attributes.subresource}`),
  );
  if (!resourceOk) return false;
  const names = rule.resourceNames ?? [];
  return names.length === 0 || (attributes.name !== undefined && names.includes(attributes.name));
}

/** Whether a rule grants a non-resource URL: exact, or a prefix ending in `*`. */
export function ruleAllowsNonResource(rule: PolicyRule, attributes: NonResourceAttributes): boolean {
  if (!matchesValue(rule.verbs, attributes.verb)) return false;
  return (rule.nonResourceURLs ?? []).some((url) => url === "*" || url === attributes.path || (url.endsWith("*") && attributes.path.startsWith(url.slice(0, -1))));
}

function subjectIs(subject: Subject, user: UserInfo, bindingNamespace: string | undefined): boolean {
  switch (subject.kind) {
    case "User":
      return subject.name === user.username;
    case "Group":
      return user.groups.includes(subject.name);
    case "ServiceAccount": {
      const namespace = subject.namespace || bindingNamespace;
      return namespace !== undefined && user.username === `system:serviceaccount:${namespace}:${subject.name}`;
    }
    default:
      return false;
  }
}

const subjectsOf = (binding: StoredObject): Subject[] =>
  (Array.isArray(binding.subjects) ? binding.subjects.filter(isRecord) : []).map((subject) => ({
    kind: String(subject.kind),
    name: String(subject.name),
    ...(typeof subject.namespace === "string" ? { namespace: subject.namespace } : {}),
  }));

const roleRefOf = (binding: StoredObject) => (isRecord(binding.roleRef) ? { kind: String(binding.roleRef.kind), name: String(binding.roleRef.name) } : null);

/** The ClusterRoles Kubernetes' rule resolution reads: a ClusterRole's own rules, or those its aggregation selects. */
function clusterRoleRules(store: ObjectStore, name: string): PolicyRule[] {
  const role = store.peek(refs.clusterRoles, undefined, name);
  if (!role) return [];
  const aggregation = isRecord(role.aggregationRule) ? role.aggregationRule : null;
  if (!aggregation) return rulesOf(role);
  const selectors = Array.isArray(aggregation.clusterRoleSelectors) ? aggregation.clusterRoleSelectors : [];
  const aggregated = store.list(refs.clusterRoles).filter((other) => other.metadata.name !== name && selectors.some((selector) => labelsMatch(other.metadata.labels, selector)));
  return aggregated.flatMap(rulesOf);
}

interface Grant {
  rules: PolicyRule[];
  describe: (subject: Subject) => string;
}

function describeSubject(subject: Subject): string {
  return subject.kind === "ServiceAccount" ? `ServiceAccount "${subject.name}/${subject.namespace ?? ""}"` : `${subject.kind} "${subject.name}"`;
}

/** Every grant that applies to the user in `namespace` (cluster-wide ones always). */
function grantsFor(store: ObjectStore, user: UserInfo, namespace: string | undefined): { grant: Grant; subject: Subject }[] {
  const found: { grant: Grant; subject: Subject }[] = [];
  for (const binding of store.list(refs.clusterRoleBindings)) {
    const ref = roleRefOf(binding);
    const subject = subjectsOf(binding).find((one) => subjectIs(one, user, undefined));
    if (!ref || ref.kind !== "ClusterRole" || !subject) continue;
    found.push({ subject, grant: { rules: clusterRoleRules(store, ref.name), describe: (who) => `RBAC: allowed by ClusterRoleBinding "${binding.metadata.name}" of ClusterRole "${ref.name}" to ${describeSubject(who)}` } });
  }
  if (namespace === undefined) return found;
  for (const binding of store.list(refs.roleBindings, namespace)) {
    const ref = roleRefOf(binding);
    const subject = subjectsOf(binding).find((one) => subjectIs(one, user, namespace));
    if (!ref || !subject) continue;
    const rules = ref.kind === "ClusterRole" ? clusterRoleRules(store, ref.name) : ref.kind === "Role" ? rulesOf(store.peek(refs.roles, namespace, ref.name)) : [];
    found.push({ subject, grant: { rules, describe: (who) => `RBAC: allowed by RoleBinding "${binding.metadata.name}/${namespace}" of ${ref.kind} "${ref.name}" to ${describeSubject(who)}` } });
  }
  return found;
}

export class RbacAuthorizer {
  constructor(private readonly store: ObjectStore) {}

  authorize(user: UserInfo, attributes: Attributes): Decision {
    if (user.groups.includes(MASTERS)) return { allowed: true, reason: "" };
    const namespace = attributes.kind === "resource" ? attributes.resource.namespace || undefined : undefined;
    for (const { grant, subject } of grantsFor(this.store, user, namespace)) {
      const allows = grant.rules.some((rule) => (attributes.kind === "resource" ? ruleAllowsResource(rule, attributes.resource) : ruleAllowsNonResource(rule, attributes.nonResource)));
      if (allows) return { allowed: true, reason: grant.describe(subject) };
    }
    return { allowed: false, reason: "" };
  }

  /** What the user may do in `namespace`: SelfSubjectRulesReview's answer. */
  rulesFor(user: UserInfo, namespace: string): { resourceRules: PolicyRule[]; nonResourceRules: PolicyRule[] } {
    const rules = user.groups.includes(MASTERS)
      ? [{ verbs: ["*"], apiGroups: ["*"], resources: ["*"] }, { verbs: ["*"], nonResourceURLs: ["*"] }]
      : grantsFor(this.store, user, namespace).flatMap(({ grant }) => grant.rules);
    const resourceRules = rules.filter((rule) => (rule.resources ?? []).length > 0).map(({ verbs, apiGroups, resources, resourceNames }) => ({ verbs, apiGroups, resources, ...(resourceNames?.length ? { resourceNames } : {}) }));
    const nonResourceRules = rules.filter((rule) => (rule.nonResourceURLs ?? []).length > 0).map(({ verbs, nonResourceURLs }) => ({ verbs, nonResourceURLs }));
    return { resourceRules, nonResourceRules };
  }
}
