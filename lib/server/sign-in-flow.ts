import type { AuthConfig } from "../config/auth-config.ts";
import type { Person } from "../domain/person.ts";
import { PENDING_SIGN_IN_COOKIE, PENDING_SIGN_IN_SECONDS, SESSION_COOKIE, type Session } from "../identity/sealed-cookies.ts";
import { cookieValue } from "../identity/authenticate.ts";
import type { Runtime } from "./runtime.ts";

// The browser's side of signing in and out: redirects and cookies around lib/identity's OIDC
// flow and token check. Every failure lands on the sign-in page, saying why.

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

/** GET /auth/sign-in: to the provider, with the PKCE verifier, state and nonce sealed in a short-lived cookie. */
export async function beginSignIn(runtime: Runtime, request: Request, returnTo: string | undefined, loginHint: string | undefined): Promise<Response> {
  const auth = runtime.config.auth;
  const url = new URL(request.url);
  // The session cookie is set for the public URL's host: sign in there, whatever name was used.
  const publicHost = new URL(auth.publicUrl).host;
  if (request.headers.get("host") !== publicHost) return redirect(`${auth.publicUrl}${url.pathname}${url.search}`);
  const signIn = runtime.identity.signIn;
  if (!signIn) return redirect(signInPage(auth, { returnTo: safeReturnTo(returnTo) }));
  const { redirectTo, pending } = await signIn.begin(safeReturnTo(returnTo), loginHint);
  return redirect(redirectTo.href, [pendingCookie(auth, await runtime.identity.sealer.sealPendingSignIn(pending))]);
}

/** GET /auth/callback: the code exchanged, the session sealed into its cookie, back where the person began. */
export async function completeSignIn(runtime: Runtime, request: Request): Promise<Response> {
  const auth = runtime.config.auth;
  const clear = cleared(auth, PENDING_SIGN_IN_COOKIE, "/auth");
  const pending = await runtime.identity.sealer.openPendingSignIn(cookieValue(request.headers, PENDING_SIGN_IN_COOKIE));
  const signIn = runtime.identity.signIn;
  if (!pending || !signIn) return redirect(signInPage(auth, { error: "The sign-in took too long or was started in another browser. Sign in again." }), [clear]);
  const providerError = new URL(request.url).searchParams.get("error_description") ?? new URL(request.url).searchParams.get("error");
  if (providerError) return redirect(signInPage(auth, { error: `The provider did not sign you in: ${providerError}`, returnTo: pending.returnTo }), [clear]);
  try {
    const session = await signIn.complete(callbackUrl(auth, request), pending);
    return redirect(`${auth.publicUrl}${pending.returnTo}`, [clear, await sealed(runtime, session)]);
  } catch (error) {
    return redirect(signInPage(auth, { error: (error as Error).message, returnTo: pending.returnTo }), [clear]);
  }
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
