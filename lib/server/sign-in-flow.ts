import { randomBytes } from "node:crypto";
import type { AuthConfig } from "../config/auth-config.ts";
import type { CliDeviceAuthorization, CliDevicePending, CliSignIn, CliToken } from "../domain/cli-sign-in.ts";
import type { Person } from "../domain/person.ts";
import { CLI_GRANT_SECONDS, PENDING_SIGN_IN_COOKIE, PENDING_SIGN_IN_SECONDS, SESSION_COOKIE, type Session } from "../identity/sealed-cookies.ts";
import { cookieValue } from "../identity/authenticate.ts";
import { issueBerthToken, verifierMatches } from "../identity/cli-tokens.ts";
import type { OidcSignIn } from "../identity/oidc-sign-in.ts";
import { BadRequestError } from "./api-problems.ts";
import type { Runtime } from "./runtime.ts";
import { whoAmI } from "./who-am-i.ts";

// The browser's side of signing in and out: redirects and cookies around lib/identity's OIDC
// flow and token check. Every failure of a person's sign-in lands on the sign-in page, saying
// why; one begun by `berth login` goes back to the CLI's loopback address with the error, and the
// CLI's own requests are answered with problem+json.

/** Only a path of this site: never an absolute URL an attacker could send a person on to. */
export function safeReturnTo(value: string | null | undefined): string {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\") || value.startsWith("/auth/")) return "/sandboxes";
  return value;
}

export function redirect(location: string, cookies: string[] = []): Response {
  const headers = new Headers({ Location: location, "Cache-Control": "no-store" });
  for (const cookie of cookies) headers.append("Set-Cookie", cookie);
  return new Response(null, { status: 303, headers });
}

const secure = (auth: AuthConfig) => (auth.publicUrl.startsWith("https:") ? "; Secure" : "");
const pendingCookie = (auth: AuthConfig, sealed: string) => `${PENDING_SIGN_IN_COOKIE}=${sealed}; Path=/auth; HttpOnly; SameSite=Lax; Max-Age=${PENDING_SIGN_IN_SECONDS}${secure(auth)}`;
const cleared = (auth: AuthConfig, name: string, path: string) => `${name}=; Path=${path}; HttpOnly; SameSite=Lax; Max-Age=0${secure(auth)}`;

/** The session cookie: sealed, HttpOnly, SameSite=Lax, Secure wherever Berth is reached over https. */
export function sessionCookie(sealed: string, maxAgeSeconds: number, publicUrl: string): string {
  const secure = publicUrl.startsWith("https:") ? "; Secure" : "";
  return `${SESSION_COOKIE}=${sealed}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`;
}

export function signInPage(auth: AuthConfig, query: Record<string, string>): string {
  return `${auth.publicUrl}/sign-in?${new URLSearchParams(query)}`;
}

/** What GET /auth/sign-in was asked (lib/domain/endpoints.ts's signIn query). */
export interface SignInRequest {
  returnTo?: string | undefined;
  person?: string | undefined;
  cliRedirect?: string | undefined;
  cliChallenge?: string | undefined;
  cliState?: string | undefined;
}

/** `berth login`'s three parameters come together or not at all. */
function cliSignInOf(query: SignInRequest): CliSignIn | undefined {
  const given = [query.cliRedirect, query.cliChallenge, query.cliState].filter((value) => value !== undefined).length;
  if (given === 0) return undefined;
  if (given < 3) throw new BadRequestError("cli-sign-in-incomplete", "berth login sends cliRedirect, cliChallenge and cliState together; one is missing. Run berth login again.");
  return { redirectUri: query.cliRedirect!, challenge: query.cliChallenge!, state: query.cliState! };
}

/** GET /auth/sign-in: to the provider, with the PKCE verifier, state and nonce sealed in a short-lived cookie. */
export async function beginSignIn(runtime: Runtime, request: Request, query: SignInRequest): Promise<Response> {
  const auth = runtime.config.auth;
  const cli = cliSignInOf(query);
  const signIn = runtime.identity.signIn;
  if (cli && !signIn) {
    throw new BadRequestError("cli-sign-in-off", `This Berth signs people in with ${auth.mode}, not through an OpenID provider, so berth login cannot use the browser: use berth login --token with a Kubernetes token.`);
  }
  const url = new URL(request.url);
  // The session cookie is set for the public URL's host: sign in there, whatever name was used.
  const publicHost = new URL(auth.publicUrl).host;
  if (request.headers.get("host") !== publicHost) return redirect(`${auth.publicUrl}${url.pathname}${url.search}`);
  if (!signIn) return redirect(signInPage(auth, { returnTo: safeReturnTo(query.returnTo) }));
  const { redirectTo, pending } = await signIn.begin(safeReturnTo(query.returnTo), query.person, { askToSignIn: cli !== undefined });
  return redirect(redirectTo.href, [pendingCookie(auth, await runtime.identity.sealer.sealPendingSignIn({ ...pending, ...(cli ? { cli } : {}) }))]);
}

/** GET /auth/callback: the code exchanged, the session sealed into its cookie, back where the person began (or to the CLI). */
export async function completeSignIn(runtime: Runtime, request: Request): Promise<Response> {
  const auth = runtime.config.auth;
  const clear = cleared(auth, PENDING_SIGN_IN_COOKIE, "/auth");
  const pending = await runtime.identity.sealer.openPendingSignIn(cookieValue(request.headers, PENDING_SIGN_IN_COOKIE));
  const signIn = runtime.identity.signIn;
  if (!pending || !signIn) return redirect(signInPage(auth, { error: "The sign-in took too long or was started in another browser. Sign in again." }), [clear]);
  const failed = (message: string) =>
    // The CLI is waiting on its loopback port: it is told there, as OAuth tells a client (RFC 6749 §4.1.2.1).
    pending.cli ? redirect(loopback(pending.cli, { error: "access_denied", error_description: message }), [clear]) : redirect(signInPage(auth, { error: message, returnTo: pending.returnTo }), [clear]);
  const answered = new URL(request.url).searchParams;
  // Only the provider's answer to this sign-in (its state) may end it: another site could send the browser here with an error.
  const providerError = answered.get("state") === pending.state ? (answered.get("error_description") ?? answered.get("error")) : null;
  if (providerError) return failed(`The provider did not sign you in: ${providerError}`);
  let session: Session;
  try {
    session = await signIn.complete(callbackUrl(auth, request), pending);
  } catch (error) {
    return failed((error as Error).message);
  }
  if (!pending.cli) return redirect(`${auth.publicUrl}${pending.returnTo}`, [clear, await sealed(runtime, session)]);
  // No cookie for the browser: the session is for the CLI, which collects it with its verifier.
  const code = await runtime.identity.sealer.sealCliGrant({ id: randomBytes(16).toString("base64url"), session, challenge: pending.cli.challenge });
  return redirect(loopback(pending.cli, { code }), [clear]);
}

function loopback(cli: CliSignIn, parameters: Record<string, string>): string {
  const url = new URL(cli.redirectUri);
  for (const [name, value] of Object.entries({ ...parameters, state: cli.state })) url.searchParams.set(name, value);
  return url.href;
}

/** POST /auth/cli-token: the loopback's code and the CLI's PKCE verifier, for a Berth token. */
export async function exchangeCliCode(runtime: Runtime, code: string, verifier: string, requestId: string): Promise<CliToken> {
  const grant = await runtime.identity.sealer.openCliGrant(code);
  if (!grant) throw new BadRequestError("cli-code-invalid", "The sign-in code has expired (it lasts a minute) or is not from this Berth: run berth login again.");
  if (!(await verifierMatches(verifier, grant.challenge))) throw new BadRequestError("cli-code-invalid", "The verifier is not the one this sign-in began with: only the berth login that opened the browser can finish it.");
  // Spent only once it is known good: a wrong verifier must not burn the right one's code.
  if (!(await runtime.store.spentCodes.spend(grant.id, new Date(Date.now() + CLI_GRANT_SECONDS * 1000)))) {
    throw new BadRequestError("cli-code-used", "This sign-in code was used already: a code is good once. Run berth login again.");
  }
  return signedInCli(runtime, grant.session, "berth login", requestId);
}

/** The provider's sign-in for berth login --device, or why there is none. */
async function deviceSignIn(runtime: Runtime): Promise<OidcSignIn> {
  const signIn = runtime.identity.signIn;
  if (!signIn) {
    throw new BadRequestError("cli-sign-in-off", `This Berth signs people in with ${runtime.config.auth.mode}, not through an OpenID provider, so berth login cannot use it: use berth login --token with a Kubernetes token.`);
  }
  if (!(await signIn.offersDeviceFlow())) {
    throw new BadRequestError("cli-device-unsupported", "The OpenID provider does not offer the device flow (its discovery document names no device_authorization_endpoint): use berth login, which opens a browser on this machine, or berth login --token.");
  }
  return signIn;
}

/** POST /auth/cli-device: a device sign-in begun at the provider; its device code sealed for the CLI to ask with. */
export async function beginCliDeviceSignIn(runtime: Runtime, now = Date.now()): Promise<CliDeviceAuthorization> {
  const started = await refusedAsBadRequest(async () => (await deviceSignIn(runtime)).beginDevice());
  const handle = await runtime.identity.sealer.sealCliDeviceHandle({ deviceCode: started.deviceCode, intervalSeconds: started.intervalSeconds }, started.expiresInSeconds);
  return {
    userCode: started.userCode,
    verificationUri: started.verificationUri,
    verificationUriComplete: started.verificationUriComplete,
    intervalSeconds: started.intervalSeconds,
    expiresAt: new Date(now + started.expiresInSeconds * 1000),
    deviceCode: handle,
  };
}

/** How much longer to wait after the provider said slow_down (RFC 8628 §3.5). */
const SLOW_DOWN_SECONDS = 5;

/** POST /auth/cli-device/token: asks the provider once; a Berth token once the person has entered the code. */
export async function pollCliDeviceSignIn(runtime: Runtime, deviceCode: string, requestId: string): Promise<CliToken | CliDevicePending> {
  const handle = await runtime.identity.sealer.openCliDeviceHandle(deviceCode);
  if (!handle) throw new BadRequestError("cli-device-invalid", "The device sign-in has expired or is not from this Berth: run berth login --device again.");
  const signIn = await deviceSignIn(runtime);
  const answer = await refusedAsBadRequest(() => signIn.pollDevice(handle.deviceCode));
  if ("pending" in answer) return { pending: true, intervalSeconds: handle.intervalSeconds + (answer.slowDown ? SLOW_DOWN_SECONDS : 0) };
  return signedInCli(runtime, answer.session, "berth login --device", requestId);
}

/** A provider's refusal is the person's sign-in failing, said as the provider said it: 400, not a server error. */
async function refusedAsBadRequest<T>(attempt: () => Promise<T>): Promise<T> {
  try {
    return await attempt();
  } catch (error) {
    // By name, as every error crossing modules here: Next.js may bundle a module more than once.
    if (error instanceof Error && error.name === "SignInError") throw new BadRequestError("cli-sign-in-failed", error.message);
    throw error;
  }
}

/** The command line signed in: recorded in the audit log, and a Berth token with what the person may do. */
async function signedInCli(runtime: Runtime, session: Session, through: string, requestId: string): Promise<CliToken> {
  const { person } = session;
  await runtime.store.audit.recordChange({ actor: { ...person, requestId }, action: "session.sign-in", targetKind: "Session", targetId: person.username, outcome: "Succeeded", details: { through } });
  const { token, expiresAt } = await issueBerthToken(runtime.identity.sealer, session, runtime.config.auth.sessionMaxAgeSeconds);
  const you = await whoAmI(runtime, { person, signedInWith: "oidc", credential: { kind: "impersonate", person }, ambient: false });
  return { token, expiresAt, you };
}

/** The callback as the provider addressed it (the public URL), whatever Next.js saw behind a proxy. */
function callbackUrl(auth: AuthConfig, request: Request): URL {
  const seen = new URL(request.url);
  return new URL(`${auth.publicUrl}${seen.pathname}${seen.search}`);
}

async function sealed(runtime: Runtime, session: Session): Promise<string> {
  const auth = runtime.config.auth;
  return sessionCookie(await runtime.identity.sealer.sealSession(session, auth.sessionMaxAgeSeconds), auth.sessionMaxAgeSeconds, auth.publicUrl);
}

/** POST /auth/token: a pasted Kubernetes token, checked with TokenReview, sealed as the session. */
export async function signInWithToken(runtime: Runtime, token: string): Promise<{ person: Person; cookie: string }> {
  const person = await runtime.identity.authenticator.identifyToken(token.trim());
  return { person, cookie: await sealed(runtime, { method: "token", person, token: token.trim() }) };
}

/** POST /auth/sign-out: the session cookie gone; back to the sign-in page. */
export function signOut(runtime: Runtime): Response {
  const auth = runtime.config.auth;
  return redirect(signInPage(auth, { signedOut: "1" }), [cleared(auth, SESSION_COOKIE, "/")]);
}
