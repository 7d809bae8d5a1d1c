import type { ServerConfig } from "../config/index.ts";
import type { Person } from "../domain/person.ts";
import { AccessDecisions } from "../identity/access-decisions.ts";
import { Authenticator } from "../identity/authenticate.ts";
import { startEmbeddedOidcProvider, type EmbeddedOidcProvider } from "../identity/embedded-oidc-provider.ts";
import { OidcSignIn } from "../identity/oidc-sign-in.ts";
import { CookieSealer } from "../identity/sealed-cookies.ts";
import { reviewAccess, reviewSelf, reviewToken } from "../kube/access-reviews.ts";
import type { ClusterConnection } from "../kube/cluster-connection.ts";
import { sessionSecretIn } from "./session-secret.ts";

// Who is asking, and what Kubernetes lets them do, for this process: the authenticator, the
// cached SubjectAccessReviews, the cookie sealer, OIDC sign-in, and — on the embedded defaults —
// the local demo provider.

export interface IdentityRuntime {
  authenticator: Authenticator;
  decisions: AccessDecisions;
  sealer: CookieSealer;
  signIn: OidcSignIn | null;
  /** Berth's own identity as Kubernetes knows it (none mode's everyone). */
  berth(): Promise<Person>;
  stop(): Promise<void>;
}

/** The origins Berth is reached at: its public URL and, on the embedded defaults, the loopback names. */
export function allowedOrigins(config: ServerConfig): string[] {
  const scheme = new URL(config.auth.publicUrl).protocol;
  return [...new Set([config.auth.publicUrl, ...config.auth.allowedHosts.map((host) => `${scheme}//${host}`)])];
}

export async function startIdentity(config: ServerConfig, berthConnection: ClusterConnection): Promise<IdentityRuntime> {
  const auth = config.auth;
  const sealer = new CookieSealer(auth.sessionSecret ?? sessionSecretIn(config.dataDir));
  let embedded: EmbeddedOidcProvider | null = null;
  let signIn: OidcSignIn | null = null;
  if (auth.mode === "oidc" && auth.oidc) {
    if (auth.oidc.issuer === "embedded") embedded = await startEmbeddedOidcProvider({ redirectOrigins: allowedOrigins(config) });
    signIn = new OidcSignIn({ issuer: embedded?.issuer ?? auth.oidc.issuer, config: auth.oidc, publicUrl: auth.publicUrl });
  }
  let self: Promise<Person> | null = null;
  const berth = () => {
    self ??= reviewSelf(berthConnection).catch((error: unknown) => {
      self = null;
      throw error;
    });
    return self;
  };
  return {
    authenticator: new Authenticator({ config: auth, sealer, reviewToken: (token) => reviewToken(berthConnection, token), oidc: signIn, berth }),
    decisions: new AccessDecisions((person, attributes) => reviewAccess(berthConnection, person, attributes)),
    sealer,
    signIn,
    berth,
    stop: async () => {
      await embedded?.stop();
    },
  };
}
