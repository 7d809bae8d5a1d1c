import type { IncomingMessage } from "node:http";
import { StatusError } from "../status-error.ts";
import { headerLines, forbidden } from "./request-attributes.ts";
import type { Attributes, Decision, RbacAuthorizer } from "./rbac-authorizer.ts";
import type { TokenAuthority } from "./token-authority.ts";
import { ANONYMOUS, AUTHENTICATED, UNAUTHENTICATED, withAuthenticated, type UserInfo } from "./users.ts";

// Every request to the simulated API server passes here first, as through kube-apiserver's
// filters: authentication (a bearer token, or nobody: system:anonymous), impersonation (the
// Impersonate-* headers, each allowed by the `impersonate` verb), then authorization by RBAC.

const unauthorized = () => StatusError.of(401, "Unauthorized", "Unauthorized");

export class AccessControl {
  constructor(
    readonly tokens: TokenAuthority,
    readonly rbac: RbacAuthorizer,
  ) {}

  /** Who sent the request, before impersonation; 401 for a token the server does not accept. */
  authenticate(request: IncomingMessage): UserInfo {
    const header = request.headers.authorization;
    if (!header) return ANONYMOUS;
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw unauthorized();
    const review = this.tokens.review(match[1]!);
    if (!review.authenticated) throw unauthorized();
    return withAuthenticated(review.user);
  }

  authorize(user: UserInfo, attributes: Attributes): Decision {
    return this.rbac.authorize(user, attributes);
  }

  /** The user the request acts as: the authenticated one, or whom it impersonates, if allowed to. */
  actingUser(request: IncomingMessage, authenticated: UserInfo): UserInfo {
    const users = headerLines(request, "impersonate-user");
    const groups = headerLines(request, "impersonate-group");
    const uids = headerLines(request, "impersonate-uid");
    const extras = new Map<string, string[]>();
    for (let index = 0; index + 1 < request.rawHeaders.length; index += 2) {
      const name = request.rawHeaders[index]!.toLowerCase();
      if (!name.startsWith("impersonate-extra-")) continue;
      const key = decodeURIComponent(name.slice("impersonate-extra-".length));
      extras.set(key, [...(extras.get(key) ?? []), request.rawHeaders[index + 1]!]);
    }
    if (users.length === 0) {
      if (groups.length > 0 || uids.length > 0 || extras.size > 0) {
        throw StatusError.badRequest("requested impersonation of groups, uid or extra without impersonating a user");
      }
      return authenticated;
    }
    if (users.length > 1) throw StatusError.badRequest("only one Impersonate-User header is allowed");
    const username = users[0]!;
    const serviceAccount = /^system:serviceaccount:([^:]+):([^:]+)$/.exec(username);
    const asked: Attributes = serviceAccount
      ? { kind: "resource", resource: { verb: "impersonate", group: "", resource: "serviceaccounts", namespace: serviceAccount[1]!, name: serviceAccount[2]! } }
      : { kind: "resource", resource: { verb: "impersonate", group: "", resource: "users", name: username } };
    this.requireImpersonation(authenticated, asked);
    for (const group of groups) this.requireImpersonation(authenticated, { kind: "resource", resource: { verb: "impersonate", group: "", resource: "groups", name: group } });
    for (const uid of uids) this.requireImpersonation(authenticated, { kind: "resource", resource: { verb: "impersonate", group: "authentication.k8s.io", resource: "uids", name: uid } });
    for (const [key, values] of extras) {
      for (const value of values) this.requireImpersonation(authenticated, { kind: "resource", resource: { verb: "impersonate", group: "authentication.k8s.io", resource: "userextras", subresource: key, name: value } });
    }
    // An impersonated user is authenticated, unless it is the anonymous one.
    const implied = username === ANONYMOUS.username ? [UNAUTHENTICATED] : serviceAccount ? ["system:serviceaccounts", `system:serviceaccounts:${serviceAccount[1]}`, AUTHENTICATED] : [AUTHENTICATED];
    return {
      username,
      groups: [...new Set([...groups, ...implied])],
      ...(uids[0] ? { uid: uids[0] } : {}),
      ...(extras.size > 0 ? { extra: Object.fromEntries(extras) } : {}),
    };
  }

  private requireImpersonation(user: UserInfo, attributes: Attributes): void {
    if (!this.rbac.authorize(user, attributes).allowed) throw forbidden(user, attributes);
  }
}
