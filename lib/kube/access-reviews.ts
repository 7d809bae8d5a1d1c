import { AuthenticationV1Api, AuthorizationV1Api } from "@kubernetes/client-node";
import type { AccessAttributes } from "../domain/access.ts";
import type { Person } from "../domain/person.ts";
import type { ClusterConnection } from "./cluster-connection.ts";
import { kube } from "./kube-errors.ts";

// Kubernetes as the authority on who a token belongs to (TokenReview) and on what a person may
// do (SubjectAccessReview, SelfSubjectRulesReview). Berth asks with its own identity; the API
// server answers from RBAC — or whatever authorizers the cluster runs.

export interface AccessDecision {
  allowed: boolean;
  /** The authorizer's words: "RBAC: allowed by RoleBinding …", or why it could not decide. */
  reason: string;
}

/** May `person` do what `attributes` says? Asked by Berth (it needs create subjectaccessreviews). */
export async function reviewAccess(connection: ClusterConnection, person: Person, attributes: AccessAttributes): Promise<AccessDecision> {
  const api = connection.kubeConfig.makeApiClient(AuthorizationV1Api);
  const review = await kube(() =>
    api.createSubjectAccessReview({
      body: {
        apiVersion: "authorization.k8s.io/v1",
        kind: "SubjectAccessReview",
        spec: {
          user: person.username,
          groups: person.groups,
          ...(person.uid ? { uid: person.uid } : {}),
          ...(person.extra ? { extra: person.extra } : {}),
          ...("resource" in attributes ? { resourceAttributes: attributes.resource } : { nonResourceAttributes: attributes.nonResource }),
        },
      },
    }),
  );
  const status = review.status;
  return { allowed: status?.allowed === true && status.denied !== true, reason: status?.reason || status?.evaluationError || "" };
}

export type TokenIdentity = { authenticated: true; person: Person } | { authenticated: false; error: string };

/** Whose token this is, by TokenReview (Berth needs create tokenreviews). */
export async function reviewToken(connection: ClusterConnection, token: string, audiences?: string[]): Promise<TokenIdentity> {
  const api = connection.kubeConfig.makeApiClient(AuthenticationV1Api);
  const review = await kube(() =>
    api.createTokenReview({ body: { apiVersion: "authentication.k8s.io/v1", kind: "TokenReview", spec: { token, ...(audiences ? { audiences } : {}) } } }),
  );
  const status = review.status;
  const user = status?.user;
  if (!status?.authenticated || !user?.username) return { authenticated: false, error: status?.error || "the token is not valid" };
  return {
    authenticated: true,
    person: { username: user.username, groups: user.groups ?? [], ...(user.uid ? { uid: user.uid } : {}), ...(user.extra ? { extra: user.extra } : {}) },
  };
}

/** Who the connection's credentials are, as the API server sees them (SelfSubjectReview: `kubectl auth whoami`). */
export async function reviewSelf(connection: ClusterConnection): Promise<Person> {
  const api = connection.kubeConfig.makeApiClient(AuthenticationV1Api);
  const review = await kube(() => api.createSelfSubjectReview({ body: { apiVersion: "authentication.k8s.io/v1", kind: "SelfSubjectReview" } }));
  const user = review.status?.userInfo;
  return { username: user?.username ?? "", groups: user?.groups ?? [], ...(user?.uid ? { uid: user.uid } : {}), ...(user?.extra ? { extra: user.extra } : {}) };
}

export interface ResourceRule {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames: string[];
}

/** What the connection's person may do in `namespace` (SelfSubjectRulesReview), for showing, never for deciding. */
export async function reviewOwnRules(connection: ClusterConnection, namespace: string): Promise<{ rules: ResourceRule[]; incomplete: boolean }> {
  const api = connection.kubeConfig.makeApiClient(AuthorizationV1Api);
  const review = await kube(() =>
    api.createSelfSubjectRulesReview({ body: { apiVersion: "authorization.k8s.io/v1", kind: "SelfSubjectRulesReview", spec: { namespace } } }),
  );
  const rules = (review.status?.resourceRules ?? []).map((rule) => ({
    verbs: rule.verbs,
    apiGroups: rule.apiGroups ?? [],
    resources: rule.resources ?? [],
    resourceNames: rule.resourceNames ?? [],
  }));
  return { rules, incomplete: review.status?.incomplete ?? false };
}
