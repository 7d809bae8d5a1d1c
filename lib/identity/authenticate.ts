import { createHash } from "node:crypto";
import { BlockList, isIPv4, isIPv6 } from "node:net";
import type { AuthConfig, ProxyConfig } from "../config/auth-config.ts";
import type { Person, SignInMethod } from "../domain/person.ts";
import type { KubeCredential } from "../kube/acting-as.ts";
import type { TokenIdentity } from "../kube/access-reviews.ts";
import type { OidcSignIn } from "./oidc-sign-in.ts";
import { isBerthToken, openBerthToken } from "./cli-tokens.ts";
import { SESSION_COOKIE, type CookieSealer, type Session } from "./sealed-cookies.ts";

// Who is asking, proved — never taken from a header or a body Berth did not check:
//   1. `Authorization: Bearer <Kubernetes token>` (scripts, the CLI, Prometheus), in every mode,
//      checked with TokenReview and then used as the person's own token; or `Bearer berth_…`,
//      the sealed session `berth login` collected through the browser (oidc mode);
//   2. proxy mode: the authenticating proxy's user and group headers, only from its addresses;
//   3. none mode: everyone is Berth itself (loopback only, see the start-up check);
//   4. the sealed session cookie (oidc and token modes), refreshed when its tokens expire.

/** A proved caller, and how Berth calls Kubernetes for them. */
export interface Caller {
  person: Person;
  signedInWith: SignInMethod;
  credential: KubeCredential;
  /**
   * True when the browser sends the credential by itself (a cookie, a proxy's session): such a
   * request could be forged by another site, so state-changing ones must come from Berth's origin.
   */
  ambient: boolean;
  /** A renewed session (its provider's tokens were refreshed), to hand back the way it came. */
  renewedSession?: { session: Session; carriedIn: SessionCarrier };
}

/** Where a session travels: the browser's cookie, or the CLI's Berth token. */
export type SessionCarrier = "cookie" | "berth-token";

export class AuthenticationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AuthenticationError";
  }
}

/** What authentication sees of a request. */
export interface RequestCredentials {
  headers: Headers;
  /** The TCP peer's address (lib/platform/peer-address.ts); null when unknown. */
  peerAddress: string | null;
}

export interface AuthenticatorOptions {
  config: AuthConfig;
  sealer: CookieSealer;
  /** Who a Kubernetes token belongs to (TokenReview). */
  reviewToken: (token: string) => Promise<TokenIdentity>;
  oidc: OidcSignIn | null;
  /** Berth's own identity, for none mode. */
  berth: () => Promise<Person>;
  /** How long a TokenReview answer is trusted (default 30 s). */
  tokenTtlMs?: number;
  now?: () => number;
}

const MAX_TOKEN_LENGTH = 16_384;

export function cookieValue(headers: Headers, name: string): string | undefined {
  for (const part of (headers.get("cookie") ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

function trustedProxies(proxy: ProxyConfig): BlockList {
  const list = new BlockList();
  for (const entry of proxy.trustedAddresses) {
    const [address, bits] = entry.split("/") as [string, string | undefined];
    const family = isIPv4(address) ? "ipv4" : "ipv6";
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  return list;
}

/** An IPv4 peer as node reports it on a dual-stack socket (::ffff:10.0.0.5) is that IPv4 address. */
function normalizedAddress(address: string): { address: string; family: "ipv4" | "ipv6" } | null {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return { address: mapped, family: "ipv4" };
  if (isIPv4(address)) return { address, family: "ipv4" };
  if (isIPv6(address)) return { address, family: "ipv6" };
  return null;
}

export class Authenticator {
  private readonly tokens = new Map<string, { identity: Promise<TokenIdentity>; until: number }>();
  private readonly proxies: BlockList | null;
  private readonly now: () => number;

  constructor(private readonly options: AuthenticatorOptions) {
    this.proxies = options.config.proxy ? trustedProxies(options.config.proxy) : null;
    this.now = options.now ?? Date.now;
  }

  /** The caller, null when the request carries no credentials, or AuthenticationError when they are wrong. */
  async authenticate(request: RequestCredentials): Promise<Caller | null> {
    const authorization = request.headers.get("authorization");
    if (authorization !== null) return this.bearer(authorization);
    switch (this.options.config.mode) {
      case "proxy":
        return this.proxied(request);
      case "none":
        return { person: await this.options.berth(), signedInWith: "none", credential: { kind: "berth" }, ambient: true };
      default:
        return this.cookieSession(cookieValue(request.headers, SESSION_COOKIE));
    }
  }

  /** Who the token belongs to, by TokenReview, remembered for a short while. */
  async identifyToken(token: string): Promise<Person> {
    if (token.length > MAX_TOKEN_LENGTH || /\s/.test(token)) throw new AuthenticationError("The bearer token is not a Kubernetes token.");
    // Never handed to TokenReview: the API server (and its webhooks) would see a Berth session.
    if (isBerthToken(token)) throw new AuthenticationError("A Berth token (from berth login) is sent as `Authorization: Bearer`, not pasted as a Kubernetes token.");
    const key = createHash("sha256").update(token).digest("base64url");
    const now = this.now();
    let known = this.tokens.get(key);
    if (!known || known.until <= now) {
      known = { identity: this.options.reviewToken(token), until: now + (this.options.tokenTtlMs ?? 30_000) };
      this.tokens.set(key, known);
      known.identity.catch(() => this.tokens.delete(key));
      if (this.tokens.size > 10_000) this.tokens.delete(this.tokens.keys().next().value!);
    }
    const identity = await known.identity;
    if (!identity.authenticated) throw new AuthenticationError(`Kubernetes does not accept the token: ${identity.error}`);
    return identity.person;
  }

  private async bearer(authorization: string): Promise<Caller> {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
    if (!match) throw new AuthenticationError("The Authorization header must be `Bearer <a Kubernetes token>` or `Bearer <a token from berth login>`.");
    const token = match[1]!;
    if (isBerthToken(token)) {
      if (this.options.config.mode !== "oidc") throw new AuthenticationError(`Berth tokens come from berth login through an OpenID provider; this Berth signs people in with ${this.options.config.mode}: use a Kubernetes token.`);
      return this.berthToken(token);
    }
    return { person: await this.identifyToken(token), signedInWith: "token", credential: { kind: "token", token }, ambient: false };
  }

  private proxied(request: RequestCredentials): Caller | null {
    const proxy = this.options.config.proxy!;
    const user = request.headers.get(proxy.userHeader)?.trim();
    if (!user) return null;
    const peer = request.peerAddress ? normalizedAddress(request.peerAddress) : null;
    // Headers from anywhere but the proxy are someone claiming to be someone: not an identity.
    if (!peer || !this.proxies!.check(peer.address, peer.family)) {
      throw new AuthenticationError(`The ${proxy.userHeader} header came from ${request.peerAddress ?? "an unknown address"}, which is not a trusted authenticating proxy (BERTH_PROXY_TRUSTED_ADDRESSES).`);
    }
    if (/^system:/.test(user)) throw new AuthenticationError(`The proxy named the user ${user}, a name Kubernetes reserves.`);
    const groups = (request.headers.get(proxy.groupHeader) ?? "")
      .split(",")
      .map((group) => group.trim())
      .filter((group) => group !== "" && !/^system:/.test(group));
    const person = { username: user, groups: [...new Set(groups)] };
    return { person, signedInWith: "proxy", credential: { kind: "impersonate", person }, ambient: true };
  }

  private async cookieSession(sealed: string | undefined): Promise<Caller | null> {
    const session = await this.options.sealer.openSession(sealed);
    return session ? this.fromSession(session, "cookie") : null;
  }

  private async berthToken(token: string): Promise<Caller> {
    const session = await openBerthToken(this.options.sealer, token);
    const caller = session ? await this.fromSession(session, "berth-token") : null;
    if (!caller) throw new AuthenticationError("The Berth token has expired, was signed out at the provider, or is not from this Berth: run `berth login` again.");
    return caller;
  }

  /** The person a session names, now: a token session checked again, an OIDC one refreshed once its tokens expire. */
  private async fromSession(session: Session, carriedIn: SessionCarrier): Promise<Caller | null> {
    // A cookie is sent by the browser by itself; a bearer token only by a program that was given it.
    const ambient = carriedIn === "cookie";
    if (session.method === "token") {
      if (!session.token) return null;
      // Revoked since sign-in? TokenReview says, and the person is what Kubernetes says now.
      const person = await this.identifyToken(session.token).catch(() => null);
      return person ? { person, signedInWith: "token", credential: { kind: "token", token: session.token }, ambient } : null;
    }
    let current = session;
    let renewed: Session | undefined;
    if (session.refreshAt !== undefined && session.refreshAt <= this.now()) {
      const refreshed = this.options.oidc ? await this.options.oidc.refresh(session) : null;
      if (!refreshed) return null;
      current = renewed = refreshed;
    }
    return { person: current.person, signedInWith: "oidc", credential: { kind: "impersonate", person: current.person }, ambient, ...(renewed ? { renewedSession: { session: renewed, carriedIn } } : {}) };
  }
}
