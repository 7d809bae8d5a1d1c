import { isIP } from "node:net";
import type { ClusterMode } from "../domain/cluster-mode.ts";
import { SIGN_IN_METHODS, type SignInMethod } from "../domain/person.ts";

// How people sign in to Berth and where Berth is reached, from BERTH_AUTH_* / BERTH_OIDC_* /
// BERTH_PROXY_* variables (Helm: auth.*). Safe by default: sign-in is always on unless
// BERTH_AUTH_MODE=none is asked for, and then Berth serves loopback only. The embedded default
// (no cluster configured) signs people in for real, through a local OpenID provider.

export interface OidcConfig {
  /** The provider's issuer URL, or "embedded": Berth's own demo provider on loopback. */
  issuer: string | "embedded";
  clientId: string;
  clientSecret: string | null;
  scopes: string[];
  /** As the API server's --oidc-username-claim / --oidc-username-prefix / --oidc-groups-claim / --oidc-groups-prefix. */
  usernameClaim: string;
  usernamePrefix: string;
  groupsClaim: string;
  groupsPrefix: string;
}

export interface ProxyConfig {
  /** Addresses (IPs or CIDRs) of the authenticating proxy; requests from anywhere else are not trusted. */
  trustedAddresses: string[];
  userHeader: string;
  groupHeader: string;
}

export interface AuthConfig {
  mode: SignInMethod;
  /** The URL people reach Berth at: the origin state-changing requests must come from, the OIDC redirect's base. */
  publicUrl: string;
  /** Host headers Berth answers to (DNS rebinding stops here). */
  allowedHosts: string[];
  /** The key that seals session cookies; null: generated once and kept in the data directory (embedded only). */
  sessionSecret: string | null;
  sessionMaxAgeSeconds: number;
  oidc: OidcConfig | null;
  proxy: ProxyConfig | null;
}

export const AUTH_VARIABLES = {
  mode: "BERTH_AUTH_MODE",
  publicUrl: "BERTH_PUBLIC_URL",
  allowedHosts: "BERTH_ALLOWED_HOSTS",
  sessionSecret: "BERTH_SESSION_SECRET",
  sessionMaxAge: "BERTH_SESSION_MAX_AGE_SECONDS",
  oidcIssuer: "BERTH_OIDC_ISSUER",
  oidcClientId: "BERTH_OIDC_CLIENT_ID",
  oidcClientSecret: "BERTH_OIDC_CLIENT_SECRET",
  oidcScopes: "BERTH_OIDC_SCOPES",
  oidcUsernameClaim: "BERTH_OIDC_USERNAME_CLAIM",
  oidcUsernamePrefix: "BERTH_OIDC_USERNAME_PREFIX",
  oidcGroupsClaim: "BERTH_OIDC_GROUPS_CLAIM",
  oidcGroupsPrefix: "BERTH_OIDC_GROUPS_PREFIX",
  proxyTrustedAddresses: "BERTH_PROXY_TRUSTED_ADDRESSES",
  proxyUserHeader: "BERTH_PROXY_USER_HEADER",
  proxyGroupHeader: "BERTH_PROXY_GROUP_HEADER",
} as const;

const MIN_SECRET_LENGTH = 32;
const HEADER_NAME = /^[A-Za-z0-9-]+$/;

/** The demo provider's people sign in with their e-mail address; their groups are prefixed so they cannot pose as system groups. */
const EMBEDDED_OIDC: Omit<OidcConfig, "issuer"> = {
  clientId: "berth",
  clientSecret: null,
  scopes: ["openid", "profile", "email", "groups", "offline_access"],
  usernameClaim: "email",
  usernamePrefix: "",
  groupsClaim: "groups",
  groupsPrefix: "oidc:",
};

const list = (value: string | undefined) =>
  (value ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

function isAddressOrCidr(value: string): boolean {
  const [address, bits, ...rest] = value.split("/");
  if (rest.length > 0 || !address) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (bits === undefined) return true;
  const width = Number(bits);
  return /^\d+$/.test(bits) && width >= 0 && width <= (family === 4 ? 32 : 128);
}

function resolvePublicUrl(env: Record<string, string | undefined>, embedded: boolean, problems: string[]): URL | null {
  const given = env[AUTH_VARIABLES.publicUrl];
  if (!given) {
    if (embedded) return new URL(`http://localhost:${env.PORT || "3000"}`);
    problems.push(`${AUTH_VARIABLES.publicUrl} is not set: set it to the URL people reach Berth at (https://berth.example.com). Berth checks that state-changing requests come from it and redirects sign-ins back to it.`);
    return null;
  }
  try {
    const url = new URL(given);
    if (!["http:", "https:"].includes(url.protocol) || url.pathname !== "/" || url.search || url.hash) throw new Error("not an origin");
    return url;
  } catch {
    problems.push(`${AUTH_VARIABLES.publicUrl} = ${JSON.stringify(given)}: not an http(s) origin. Allowed: a URL such as https://berth.example.com, with no path.`);
    return null;
  }
}

function resolveOidc(env: Record<string, string | undefined>, embedded: boolean, problems: string[]): OidcConfig | null {
  const issuer = env[AUTH_VARIABLES.oidcIssuer];
  if (!issuer) {
    if (embedded) return { issuer: "embedded", ...EMBEDDED_OIDC };
    problems.push(
      `${AUTH_VARIABLES.oidcIssuer} is not set: with ${AUTH_VARIABLES.mode}=oidc (the default) Berth needs your OpenID provider's issuer URL, and ${AUTH_VARIABLES.oidcClientId}. Or set ${AUTH_VARIABLES.mode}=token to sign in with Kubernetes tokens.`,
    );
    return null;
  }
  if (!URL.canParse(issuer) || !/^https?:$/.test(new URL(issuer).protocol)) {
    problems.push(`${AUTH_VARIABLES.oidcIssuer} = ${JSON.stringify(issuer)}: not a URL. Allowed: the issuer URL your provider names in its discovery document, such as https://accounts.example.com.`);
    return null;
  }
  const usernameClaim = env[AUTH_VARIABLES.oidcUsernameClaim] || "sub";
  // The API server's rule: a claim other than email is prefixed with the issuer, unless told otherwise; "-" means no prefix.
  const prefix = env[AUTH_VARIABLES.oidcUsernamePrefix];
  const usernamePrefix = prefix === "-" ? "" : prefix ?? (usernameClaim === "email" ? "" : `${issuer}#`);
  const groupsPrefix = env[AUTH_VARIABLES.oidcGroupsPrefix];
  return {
    issuer,
    clientId: env[AUTH_VARIABLES.oidcClientId] || "berth",
    clientSecret: env[AUTH_VARIABLES.oidcClientSecret] || null,
    scopes: list(env[AUTH_VARIABLES.oidcScopes] || "openid,profile,email"),
    usernameClaim,
    usernamePrefix,
    groupsClaim: env[AUTH_VARIABLES.oidcGroupsClaim] || "groups",
    groupsPrefix: groupsPrefix === "-" ? "" : groupsPrefix ?? "",
  };
}

function resolveProxy(env: Record<string, string | undefined>, problems: string[]): ProxyConfig | null {
  const trustedAddresses = list(env[AUTH_VARIABLES.proxyTrustedAddresses]);
  if (trustedAddresses.length === 0) {
    problems.push(`${AUTH_VARIABLES.proxyTrustedAddresses} is not set: with ${AUTH_VARIABLES.mode}=proxy, name the addresses of your authenticating proxy (IPs or CIDRs, comma-separated); its headers are trusted from there only.`);
    return null;
  }
  const wrong = trustedAddresses.filter((address) => !isAddressOrCidr(address));
  if (wrong.length > 0) problems.push(`${AUTH_VARIABLES.proxyTrustedAddresses} = ${JSON.stringify(wrong.join(","))}: not an IP address or CIDR. Allowed: such as 10.0.0.5 or 10.0.0.0/24.`);
  const userHeader = env[AUTH_VARIABLES.proxyUserHeader] || "X-Remote-User";
  const groupHeader = env[AUTH_VARIABLES.proxyGroupHeader] || "X-Remote-Group";
  for (const [variable, value] of [[AUTH_VARIABLES.proxyUserHeader, userHeader], [AUTH_VARIABLES.proxyGroupHeader, groupHeader]] as const) {
    if (!HEADER_NAME.test(value)) problems.push(`${variable} = ${JSON.stringify(value)}: not a header name. Allowed: letters, digits and '-'.`);
  }
  return wrong.length > 0 ? null : { trustedAddresses, userHeader, groupHeader };
}

/** The sign-in configuration; problems are added to `problems` (all at once) and null returned. */
export function resolveAuth(env: Record<string, string | undefined>, clusterMode: ClusterMode, problems: string[]): AuthConfig | null {
  const before = problems.length;
  const embedded = clusterMode === "embedded";
  const requested = env[AUTH_VARIABLES.mode] || "oidc";
  if (!(SIGN_IN_METHODS as readonly string[]).includes(requested)) {
    problems.push(`${AUTH_VARIABLES.mode} = ${JSON.stringify(requested)}: unknown sign-in mode. Allowed: ${SIGN_IN_METHODS.join(", ")}.`);
    return null;
  }
  const mode = requested as SignInMethod;
  const publicUrl = resolvePublicUrl(env, embedded || mode === "none", problems);
  const secret = env[AUTH_VARIABLES.sessionSecret] || null;
  if (secret !== null && secret.length < MIN_SECRET_LENGTH) {
    problems.push(`${AUTH_VARIABLES.sessionSecret} is too short (${secret.length} characters). Allowed: at least ${MIN_SECRET_LENGTH} random characters, such as the output of \`openssl rand -base64 32\`.`);
  }
  if (secret === null && !embedded && (mode === "oidc" || mode === "token")) {
    problems.push(`${AUTH_VARIABLES.sessionSecret} is not set: every replica seals and opens session cookies with it. Allowed: at least ${MIN_SECRET_LENGTH} random characters (the Helm chart keeps one in a Secret).`);
  }
  const maxAge = env[AUTH_VARIABLES.sessionMaxAge] ? Number(env[AUTH_VARIABLES.sessionMaxAge]) : 12 * 3600;
  if (!Number.isInteger(maxAge) || maxAge < 300 || maxAge > 30 * 86400) {
    problems.push(`${AUTH_VARIABLES.sessionMaxAge} = ${JSON.stringify(env[AUTH_VARIABLES.sessionMaxAge])}: Allowed: a whole number of seconds from 300 to 2592000 (30 days).`);
  }
  const oidc = mode === "oidc" ? resolveOidc(env, embedded, problems) : null;
  const proxy = mode === "proxy" ? resolveProxy(env, problems) : null;
  if (problems.length > before || !publicUrl) return null;
  const loopbackHosts = embedded || mode === "none" ? ["localhost", "127.0.0.1", "[::1]"].map((host) => (publicUrl.port ? `${host}:${publicUrl.port}` : host)) : [];
  const allowedHosts = [...new Set([publicUrl.host, ...loopbackHosts, ...list(env[AUTH_VARIABLES.allowedHosts])])];
  return { mode, publicUrl: publicUrl.origin, allowedHosts, sessionSecret: secret, sessionMaxAgeSeconds: maxAge, oidc, proxy };
}
