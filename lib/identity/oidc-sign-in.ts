import * as oidc from "openid-client";
import type { OidcConfig } from "../config/auth-config.ts";
import type { Person } from "../domain/person.ts";
import type { PendingSignIn, Session } from "./sealed-cookies.ts";

// Signing in with an OpenID provider (openid-client): the authorization code flow with PKCE,
// the ID token checked (issuer, audience, signature, nonce), the claims turned into a Kubernetes
// user the way the API server's own OIDC flags would (username and groups claims, prefixes),
// and a refresh when the tokens expire.

export class SignInError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "SignInError";
  }
}

type Claims = Record<string, unknown>;

/** Kubernetes reserves system: names; a provider's claim must never pass for one. */
const RESERVED = /^system:/;

/** The Kubernetes user an ID token's claims name, as the API server's OIDC authenticator maps them. */
export function personFromClaims(claims: Claims, config: Pick<OidcConfig, "usernameClaim" | "usernamePrefix" | "groupsClaim" | "groupsPrefix">): Person {
  const name = claims[config.usernameClaim];
  if (typeof name !== "string" || name === "") throw new SignInError(`The provider's token has no ${config.usernameClaim} claim to name the user by: set BERTH_OIDC_USERNAME_CLAIM to a claim it sends.`);
  if (config.usernameClaim === "email" && claims.email_verified === false) throw new SignInError(`The provider says the e-mail address ${name} is not verified.`);
  const username = `${config.usernamePrefix}${name}`;
  if (RESERVED.test(username)) throw new SignInError(`The user name ${username} is reserved by Kubernetes: set BERTH_OIDC_USERNAME_PREFIX.`);
  const stated = claims[config.groupsClaim];
  const groups = (Array.isArray(stated) ? stated : typeof stated === "string" ? [stated] : [])
    .filter((group): group is string => typeof group === "string" && group !== "")
    .map((group) => `${config.groupsPrefix}${group}`)
    .filter((group) => !RESERVED.test(group));
  return { username, groups: [...new Set(groups)] };
}

export interface OidcSignInOptions {
  /** The provider's issuer (the embedded one's, once started). */
  issuer: string;
  config: OidcConfig;
  /** Berth's public origin: /auth/callback there is the redirect URI. */
  publicUrl: string;
  now?: () => number;
}

/** RFC 8628's grant type: the token endpoint asked with a device code. */
const DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

export interface DeviceAuthorization {
  deviceCode: string;
  userCode: string;
  verificationUri: string;
  verificationUriComplete: string | null;
  expiresInSeconds: number;
  intervalSeconds: number;
}

export class OidcSignIn {
  private configuration: Promise<oidc.Configuration> | null = null;
  private readonly now: () => number;

  constructor(private readonly options: OidcSignInOptions) {
    this.now = options.now ?? Date.now;
  }

  get redirectUri(): string {
    return `${this.options.publicUrl}/auth/callback`;
  }

  /** The provider's metadata, discovered once; a failed discovery is retried on the next sign-in. */
  private provider(): Promise<oidc.Configuration> {
    this.configuration ??= oidc
      .discovery(
        new URL(this.options.issuer),
        this.options.config.clientId,
        this.options.config.clientSecret ?? undefined,
        this.options.config.clientSecret ? undefined : oidc.None(),
        // A provider on plain http is accepted only on loopback (the embedded one, a local test provider).
        new URL(this.options.issuer).protocol === "http:" && isLoopback(new URL(this.options.issuer).hostname) ? { execute: [oidc.allowInsecureRequests] } : undefined,
      )
      .catch((error: unknown) => {
        this.configuration = null;
        throw new SignInError(`The OpenID provider at ${this.options.issuer} cannot be reached or described itself wrongly: ${(error as Error).message}`, { cause: error });
      });
    return this.configuration;
  }

  /**
   * A refresh token (offline_access) is only granted with consent asked for; the embedded
   * provider also shows its people every time, so signing out lets one choose someone else.
   * A sign-in for the CLI always asks the person: a page that sent their browser here cannot have
   * a signed-in provider hand a code to whatever listens on a loopback port without them seeing it.
   */
  private prompt(askToSignIn: boolean): { prompt: string } | Record<string, never> {
    const prompts = [...(this.options.config.issuer === "embedded" || askToSignIn ? ["login"] : []), ...(this.options.config.scopes.includes("offline_access") ? ["consent"] : [])];
    return prompts.length > 0 ? { prompt: prompts.join(" ") } : {};
  }

  /** Where to send the browser, and what its callback must bring back. */
  async begin(returnTo: string, loginHint?: string, options: { askToSignIn?: boolean } = {}): Promise<{ redirectTo: URL; pending: PendingSignIn }> {
    const provider = await this.provider();
    const pending: PendingSignIn = { codeVerifier: oidc.randomPKCECodeVerifier(), state: oidc.randomState(), nonce: oidc.randomNonce(), returnTo };
    const parameters: Record<string, string> = {
      redirect_uri: this.redirectUri,
      scope: this.options.config.scopes.join(" "),
      code_challenge: await oidc.calculatePKCECodeChallenge(pending.codeVerifier),
      code_challenge_method: "S256",
      state: pending.state,
      nonce: pending.nonce,
      ...this.prompt(options.askToSignIn ?? false),
    };
    if (loginHint) parameters.login_hint = loginHint;
    return { redirectTo: oidc.buildAuthorizationUrl(provider, parameters), pending };
  }

  /** Whether the provider offers the device flow (RFC 8628): it names a device authorization endpoint. */
  async offersDeviceFlow(): Promise<boolean> {
    return Boolean((await this.provider()).serverMetadata().device_authorization_endpoint);
  }

  /** A device authorization: the code the person enters at the provider, and the device code to ask with. */
  async beginDevice(): Promise<DeviceAuthorization> {
    const provider = await this.provider();
    try {
      const answer = await oidc.initiateDeviceAuthorization(provider, { scope: this.options.config.scopes.join(" "), ...this.prompt(false) });
      return {
        deviceCode: answer.device_code,
        userCode: answer.user_code,
        verificationUri: answer.verification_uri,
        verificationUriComplete: answer.verification_uri_complete ?? null,
        expiresInSeconds: answer.expires_in,
        intervalSeconds: answer.interval ?? 5,
      };
    } catch (error) {
      throw new SignInError(`The provider did not start a device sign-in: ${(error as Error).message}`, { cause: error });
    }
  }

  /** Asks the provider once whether the person has entered the code: the session if so, else whether to slow down. */
  async pollDevice(deviceCode: string): Promise<{ session: Session } | { pending: true; slowDown: boolean }> {
    const provider = await this.provider();
    try {
      return { session: this.sessionFrom(await oidc.genericGrantRequest(provider, DEVICE_CODE_GRANT, { device_code: deviceCode }), undefined) };
    } catch (error) {
      const code = error instanceof oidc.ResponseBodyError ? error.error : null;
      if (code === "authorization_pending" || code === "slow_down") return { pending: true, slowDown: code === "slow_down" };
      if (code === "expired_token") throw new SignInError("The code was not entered in time: run berth login --device again.", { cause: error });
      if (code === "access_denied") throw new SignInError("The sign-in was refused at the provider.", { cause: error });
      if (error instanceof SignInError) throw error;
      throw new SignInError(`The provider did not sign you in: ${(error as Error).message}`, { cause: error });
    }
  }

  /** Finishes a sign-in from the callback's URL; throws SignInError with what went wrong. */
  async complete(callbackUrl: URL, pending: PendingSignIn): Promise<Session> {
    const provider = await this.provider();
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(provider, callbackUrl, { pkceCodeVerifier: pending.codeVerifier, expectedState: pending.state, expectedNonce: pending.nonce, idTokenExpected: true });
    } catch (error) {
      throw new SignInError(`The provider did not sign you in: ${(error as Error).message}`, { cause: error });
    }
    return this.sessionFrom(tokens, undefined);
  }

  /** Fresh tokens and claims for a session whose tokens expired; null when the provider says no. */
  async refresh(session: Session): Promise<Session | null> {
    if (!session.refreshToken) return null;
    const provider = await this.provider();
    try {
      return this.sessionFrom(await oidc.refreshTokenGrant(provider, session.refreshToken), session.refreshToken);
    } catch {
      return null;
    }
  }

  private sessionFrom(tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers, previousRefreshToken: string | undefined): Session {
    const claims = tokens.claims();
    if (!claims) throw new SignInError("The provider answered without an ID token.");
    const expiresIn = tokens.expiresIn() ?? Math.max(0, Number(claims.exp) - this.now() / 1000);
    const refreshToken = tokens.refresh_token ?? previousRefreshToken;
    return {
      method: "oidc",
      person: personFromClaims(claims, this.options.config),
      ...(refreshToken ? { refreshToken } : {}),
      refreshAt: Math.floor(this.now() + expiresIn * 1000),
    };
  }
}

export function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "127.0.0.1" || hostname === "[::1]" || hostname === "::1";
}
