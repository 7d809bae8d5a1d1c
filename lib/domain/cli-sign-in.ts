import { z } from "zod";
import { instantSchema } from "./instant.ts";
import { whoAmISchema } from "./who-am-i.ts";

// Signing the command line in through the browser, as native apps sign in with OAuth (RFC 8252):
// `berth login` listens on a loopback port and sends the person to Berth's sign-in with that
// port's address and a PKCE challenge; Berth signs them in with the OpenID provider as for the
// console, then sends the browser to the loopback address with a one-minute code. Only the
// process holding the PKCE verifier can exchange that code for a Berth token.
//
// Where the terminal has no browser on its machine (a remote shell, a container), the device flow
// (RFC 8628) where the provider offers it: Berth asks the provider for a user code, the person
// enters it in a browser anywhere, and the CLI asks Berth every few seconds until they have.

/** Only this machine's loopback over plain http: a port the CLI listens on, never another site. */
export const loopbackRedirectSchema = z
  .url({ protocol: /^http$/, error: "cliRedirect must be an http:// loopback address, such as http://127.0.0.1:PORT/callback" })
  .max(512)
  .refine((value) => {
    // Checks run on after the URL check fails: a value that is no URL is already refused there.
    if (!URL.canParse(value)) return true;
    const url = new URL(value);
    // IP literals only (RFC 8252 §8.3): "localhost" may resolve elsewhere.
    return ["127.0.0.1", "[::1]"].includes(url.hostname) && url.port !== "" && url.username === "" && url.password === "" && url.hash === "";
  }, "cliRedirect must be a loopback IP address with a port (127.0.0.1 or [::1]), without credentials or fragment");

/** RFC 7636: a verifier is 43–128 unreserved characters; its S256 challenge is 43 base64url ones. */
export const pkceVerifierSchema = z.string().regex(/^[A-Za-z0-9._~-]{43,128}$/, "verifier must be the PKCE code verifier the login began with (43–128 unreserved characters)");
export const pkceChallengeSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/, "cliChallenge must be the S256 PKCE challenge of the CLI's verifier (43 base64url characters)");

/** RFC 7636's S256: the base64url SHA-256 of the verifier (Web Crypto, so the CLI and the server compute it alike). */
export async function pkceChallengeOf(verifier: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  return btoa(String.fromCharCode(...digest)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** What `berth login` adds to GET /auth/sign-in: all three, or none. */
export const cliSignInSchema = z.object({
  redirectUri: loopbackRedirectSchema,
  challenge: pkceChallengeSchema,
  /** Echoed back on the loopback redirect, so the CLI knows the answer is to its own request. */
  state: z.string().regex(/^[A-Za-z0-9_-]{16,128}$/, "cliState must be 16–128 base64url characters"),
});
export type CliSignIn = z.infer<typeof cliSignInSchema>;

/** POST /auth/cli-token: the code the loopback redirect brought, and the verifier only the CLI has. */
export const cliTokenRequestSchema = z.strictObject({
  code: z.string().min(1, "code must be the code the browser brought back to the CLI").max(16_384),
  verifier: pkceVerifierSchema,
});

/** The answer: the token to send as `Authorization: Bearer`, until when it is good, and who it is for. */
export const cliTokenSchema = z.object({
  token: z.string(),
  expiresAt: instantSchema,
  you: whoAmISchema,
});
export type CliToken = z.infer<typeof cliTokenSchema>;

/**
 * POST /auth/cli-device: what the person must do, and the handle the CLI asks with. The handle
 * is the provider's device code sealed by Berth: only this Berth can read it, until it expires.
 */
export const cliDeviceAuthorizationSchema = z.object({
  userCode: z.string(),
  verificationUri: z.url(),
  /** The address with the code already in it, where the provider gives one. */
  verificationUriComplete: z.url().nullable(),
  /** Ask no more often than this. */
  intervalSeconds: z.number().int().positive(),
  expiresAt: instantSchema,
  deviceCode: z.string(),
});
export type CliDeviceAuthorization = z.infer<typeof cliDeviceAuthorizationSchema>;

/** POST /auth/cli-device/token: the handle the device authorization gave. */
export const cliDeviceTokenRequestSchema = z.strictObject({
  deviceCode: z.string().min(1, "deviceCode must be the one POST /auth/cli-device answered").max(16_384),
});

/** The person has not finished in the browser yet: ask again after `intervalSeconds`. */
export const cliDevicePendingSchema = z.object({ pending: z.literal(true), intervalSeconds: z.number().int().positive() });
export type CliDevicePending = z.infer<typeof cliDevicePendingSchema>;

/** Tokens Berth issues start with this, so a Kubernetes token is never mistaken for one. */
export const BERTH_TOKEN_PREFIX = "berth_";

/** The header on an answer whose caller's token was renewed (the provider's tokens refreshed): the CLI keeps the new one. */
export const RENEWED_TOKEN_HEADER = "Berth-Renewed-Token";
