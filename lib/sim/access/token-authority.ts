import { createHash, randomBytes } from "node:crypto";
import { refs } from "../k8s-objects.ts";
import type { ObjectStore } from "../store/object-store.ts";
import { MASTERS, serviceAccountGroups, serviceAccountUser, withAuthenticated, type UserInfo } from "./users.ts";

// The bearer tokens the simulated API server accepts: an admin token made with the cluster
// (written into its kubeconfig, as kind's is), static tokens given at start (kube-apiserver's
// --token-auth-file), and service-account tokens issued by TokenRequest, which expire and die
// with their service account (a recreated one has a new uid). Only hashes are kept.

export interface StaticToken {
  token: string;
  user: UserInfo;
}

interface IssuedToken {
  namespace: string;
  name: string;
  uid: string;
  audiences: string[];
  expiresAt: string;
}

export interface TokenAuthoritySnapshot {
  adminToken: string;
  issued: Record<string, IssuedToken>;
}

/** The audience of tokens issued for the API server itself, as kube-apiserver's default. */
export const API_AUDIENCE = "https://kubernetes.default.svc.cluster.local";

export const ADMIN_USER: UserInfo = { username: "kubernetes-admin", groups: [MASTERS, "system:authenticated"] };

const hashOf = (token: string) => createHash("sha256").update(token).digest("base64url");

export type TokenReviewResult = { authenticated: true; user: UserInfo; audiences: string[] } | { authenticated: false; error: string };

export class TokenAuthority {
  readonly adminToken: string;
  private readonly issued = new Map<string, IssuedToken>();
  private readonly statics = new Map<string, UserInfo>();

  constructor(
    private readonly store: ObjectStore,
    private readonly now: () => Date,
    options: { restored?: TokenAuthoritySnapshot; staticTokens?: StaticToken[] } = {},
  ) {
    this.adminToken = options.restored?.adminToken ?? `admin-${randomBytes(24).toString("base64url")}`;
    for (const [hash, token] of Object.entries(options.restored?.issued ?? {})) this.issued.set(hash, token);
    for (const { token, user } of options.staticTokens ?? []) this.statics.set(hashOf(token), withAuthenticated(user));
  }

  /** TokenRequest: a new token for an existing service account. */
  issue(namespace: string, name: string, uid: string, audiences: string[], expirationSeconds: number): { token: string; expiresAt: Date } {
    const token = `sa-${randomBytes(32).toString("base64url")}`;
    const expiresAt = new Date(this.now().getTime() + expirationSeconds * 1000);
    this.issued.set(hashOf(token), { namespace, name, uid, audiences: audiences.length > 0 ? audiences : [API_AUDIENCE], expiresAt: expiresAt.toISOString() });
    this.forgetExpired();
    return { token, expiresAt };
  }

  /** Whose token it is, as TokenReview and every request's authentication see it. */
  review(token: string, audiences: string[] = []): TokenReviewResult {
    const hash = hashOf(token);
    if (token === this.adminToken) return { authenticated: true, user: ADMIN_USER, audiences: [API_AUDIENCE] };
    const fixed = this.statics.get(hash);
    if (fixed) return { authenticated: true, user: fixed, audiences: [API_AUDIENCE] };
    const issued = this.issued.get(hash);
    if (!issued) return { authenticated: false, error: "invalid bearer token" };
    if (new Date(issued.expiresAt) <= this.now()) return { authenticated: false, error: "invalid bearer token, token has expired" };
    const account = this.store.peek(refs.serviceAccounts, issued.namespace, issued.name);
    if (!account || account.metadata.uid !== issued.uid || account.metadata.deletionTimestamp) {
      return { authenticated: false, error: `invalid bearer token, service account ${issued.namespace}/${issued.name} has been deleted` };
    }
    const wanted = audiences.length > 0 ? audiences : [API_AUDIENCE];
    const matching = wanted.filter((audience) => issued.audiences.includes(audience));
    if (matching.length === 0) return { authenticated: false, error: "invalid bearer token, token audiences don't match" };
    return {
      authenticated: true,
      user: { username: serviceAccountUser(issued.namespace, issued.name), uid: issued.uid, groups: serviceAccountGroups(issued.namespace) },
      audiences: matching,
    };
  }

  snapshot(): TokenAuthoritySnapshot {
    return { adminToken: this.adminToken, issued: Object.fromEntries(this.issued) };
  }

  private forgetExpired(): void {
    const now = this.now();
    for (const [hash, token] of this.issued) if (new Date(token.expiresAt) <= now) this.issued.delete(hash);
  }
}
