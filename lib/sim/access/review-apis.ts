import { refs } from "../k8s-objects.ts";
import { isRecord, type KubeObject } from "../objects.ts";
import { StatusError } from "../status-error.ts";
import type { ObjectStore } from "../store/object-store.ts";
import type { AccessControl } from "./access-control.ts";
import type { Attributes } from "./rbac-authorizer.ts";
import type { UserInfo } from "./users.ts";

// The review APIs, answered at once and stored nowhere, as kube-apiserver answers them:
// SubjectAccessReview (any subject, asked by someone allowed to ask), LocalSubjectAccessReview,
// SelfSubjectAccessReview and SelfSubjectRulesReview (about the caller, impersonation included),
// TokenReview, SelfSubjectReview (`kubectl auth whoami`), and TokenRequest for service accounts.

const str = (value: unknown) => (typeof value === "string" ? value : undefined);
const strings = (value: unknown) => (Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : []);

function attributesOf(spec: Record<string, unknown>, forceNamespace?: string): Attributes {
  const resource = isRecord(spec.resourceAttributes) ? spec.resourceAttributes : null;
  const nonResource = isRecord(spec.nonResourceAttributes) ? spec.nonResourceAttributes : null;
  if (resource && nonResource) throw StatusError.invalid("SubjectAccessReview", "authorization.k8s.io", "", [{ field: "spec.nonResourceAttributes", message: "Invalid value: cannot be specified in combination with resourceAttributes" }]);
  if (nonResource) return { kind: "non-resource", nonResource: { verb: str(nonResource.verb) ?? "", path: str(nonResource.path) ?? "" } };
  if (!resource) throw StatusError.invalid("SubjectAccessReview", "authorization.k8s.io", "", [{ field: "spec.resourceAttributes", message: "Required value: exactly one of nonResourceAttributes or resourceAttributes must be specified" }]);
  const namespace = forceNamespace ?? str(resource.namespace);
  return {
    kind: "resource",
    resource: {
      verb: str(resource.verb) ?? "",
      group: str(resource.group) ?? "",
      resource: str(resource.resource) ?? "",
      ...(str(resource.subresource) ? { subresource: str(resource.subresource)! } : {}),
      ...(namespace ? { namespace } : {}),
      ...(str(resource.name) ? { name: str(resource.name)! } : {}),
    },
  };
}

function extraOf(value: unknown): Record<string, string[]> | undefined {
  if (!isRecord(value)) return undefined;
  return Object.fromEntries(Object.entries(value).map(([key, values]) => [key, strings(values)]));
}

function answer(kind: string, group: string, body: KubeObject, status: Record<string, unknown>): KubeObject {
  return { kind, apiVersion: `${group}/v1`, metadata: { creationTimestamp: null as unknown as string, ...(body.metadata?.namespace ? { namespace: body.metadata.namespace } : {}) }, spec: isRecord(body.spec) ? body.spec : {}, status };
}

function accessStatus(access: AccessControl, subject: UserInfo, attributes: Attributes) {
  const decision = access.authorize(subject, attributes);
  return { allowed: decision.allowed, ...(decision.reason ? { reason: decision.reason } : {}) };
}

export interface ReviewContext {
  access: AccessControl;
  store: ObjectStore;
  /** The user the request acts as (after impersonation). */
  caller: UserInfo;
  namespace?: string;
}

/** The review a POST to one of the review resources asks for, answered. */
export function answerReview(resource: string, body: KubeObject, context: ReviewContext): KubeObject {
  const spec = isRecord(body.spec) ? body.spec : {};
  switch (resource) {
    case "subjectaccessreviews": {
      const user = str(spec.user) ?? "";
      const groups = strings(spec.groups);
      if (!user && groups.length === 0) throw StatusError.invalid("SubjectAccessReview", "authorization.k8s.io", "", [{ field: "spec.user", message: "Invalid value: \"\": at least one of user or group must be specified" }]);
      const subject: UserInfo = { username: user, groups, ...(str(spec.uid) ? { uid: str(spec.uid)! } : {}), ...(extraOf(spec.extra) ? { extra: extraOf(spec.extra)! } : {}) };
      return answer("SubjectAccessReview", "authorization.k8s.io", body, accessStatus(context.access, subject, attributesOf(spec)));
    }
    case "localsubjectaccessreviews": {
      const subject: UserInfo = { username: str(spec.user) ?? "", groups: strings(spec.groups) };
      const attributes = attributesOf(spec, context.namespace);
      return answer("LocalSubjectAccessReview", "authorization.k8s.io", { ...body, metadata: { ...body.metadata, namespace: context.namespace } }, accessStatus(context.access, subject, attributes));
    }
    case "selfsubjectaccessreviews":
      return answer("SelfSubjectAccessReview", "authorization.k8s.io", body, accessStatus(context.access, context.caller, attributesOf(spec)));
    case "selfsubjectrulesreviews": {
      const namespace = str(spec.namespace);
      if (!namespace) throw StatusError.invalid("SelfSubjectRulesReview", "authorization.k8s.io", "", [{ field: "spec.namespace", message: "Required value" }]);
      return answer("SelfSubjectRulesReview", "authorization.k8s.io", body, { ...context.access.rbac.rulesFor(context.caller, namespace), incomplete: false });
    }
    case "tokenreviews": {
      const token = str(spec.token);
      if (!token) throw StatusError.invalid("TokenReview", "authentication.k8s.io", "", [{ field: "spec.token", message: "Required value" }]);
      const review = context.access.tokens.review(token, strings(spec.audiences));
      const status = review.authenticated
        ? { authenticated: true, user: { username: review.user.username, ...(review.user.uid ? { uid: review.user.uid } : {}), groups: review.user.groups, ...(review.user.extra ? { extra: review.user.extra } : {}) }, audiences: review.audiences }
        : { user: {}, error: review.error };
      return answer("TokenReview", "authentication.k8s.io", body, status);
    }
    case "selfsubjectreviews": {
      const user = context.caller;
      return answer("SelfSubjectReview", "authentication.k8s.io", body, { userInfo: { username: user.username, ...(user.uid ? { uid: user.uid } : {}), groups: user.groups, ...(user.extra ? { extra: user.extra } : {}) } });
    }
    default:
      throw StatusError.of(405, "MethodNotAllowed", `the server does not allow this method on the requested resource (post ${resource})`);
  }
}

const MIN_TOKEN_SECONDS = 600;
const MAX_TOKEN_SECONDS = 48 * 3600;

/** POST …/serviceaccounts/{name}/token: a token for the service account (TokenRequest). */
export function requestToken(context: ReviewContext, namespace: string, name: string, body: KubeObject): KubeObject {
  const account = context.store.peek(refs.serviceAccounts, namespace, name);
  if (!account) throw StatusError.notFound(refs.serviceAccounts, name);
  const spec = isRecord(body.spec) ? body.spec : {};
  const requested = typeof spec.expirationSeconds === "number" ? spec.expirationSeconds : 3600;
  if (requested < MIN_TOKEN_SECONDS) {
    throw StatusError.invalid("TokenRequest", "authentication.k8s.io", name, [{ field: "spec.expirationSeconds", message: `Invalid value: ${requested}: may not specify a duration less than 10 minutes` }]);
  }
  const expirationSeconds = Math.min(requested, MAX_TOKEN_SECONDS);
  const audiences = strings(spec.audiences);
  const { token, expiresAt } = context.access.tokens.issue(namespace, name, account.metadata.uid, audiences, expirationSeconds);
  return {
    kind: "TokenRequest",
    apiVersion: "authentication.k8s.io/v1",
    metadata: { name, namespace, creationTimestamp: null as unknown as string },
    spec: { ...spec, audiences: audiences.length > 0 ? audiences : ["https://kubernetes.default.svc.cluster.local"], expirationSeconds },
    status: { token, expirationTimestamp: expiresAt.toISOString().replace(/\.\d{3}Z$/, "Z") },
  };
}
