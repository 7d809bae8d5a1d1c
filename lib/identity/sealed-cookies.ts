import { hkdfSync } from "node:crypto";
import { EncryptJWT, jwtDecrypt } from "jose";
import { z } from "zod";
import { cliSignInSchema } from "../domain/cli-sign-in.ts";
import { personSchema } from "../domain/person.ts";

// Sessions live with the client, sealed (encrypted and authenticated, JWE dir + A256GCM) with a
// key only Berth's replicas hold: in the browser's cookie, or in the CLI's bearer token. No
// server-side state, so any replica serves any request and a restart signs nobody out. What is
// sealed is never readable or changeable by its holder.

/** A signed-in person's session. */
export const sessionSchema = z.object({
  method: z.enum(["oidc", "token"]),
  person: personSchema,
  /** Token sign-in: the person's own Kubernetes token, sent as theirs on every call. */
  token: z.string().optional(),
  /** OIDC: to get fresh tokens (and claims) when the ID token expires. */
  refreshToken: z.string().optional(),
  /** When the provider's tokens expire (ms since the epoch); past it, refresh or sign in again. */
  refreshAt: z.number().int().optional(),
});
export type Session = z.infer<typeof sessionSchema>;

/** A sign-in under way: what the callback must find to finish it (PKCE verifier, state, nonce). */
export const pendingSignInSchema = z.object({
  codeVerifier: z.string(),
  state: z.string(),
  nonce: z.string(),
  returnTo: z.string(),
  /** Begun by `berth login`: the browser goes back to the CLI's loopback address at the end. */
  cli: cliSignInSchema.optional(),
});
export type PendingSignIn = z.infer<typeof pendingSignInSchema>;

/**
 * A signed-in session on its way to the CLI: good for a minute, once, and only with the PKCE
 * verifier, which never leaves the CLI. Any replica takes it; its random id, spent in the store
 * when it is exchanged, makes it good once.
 */
export const cliGrantSchema = z.object({ id: z.string().min(16), session: sessionSchema, challenge: z.string() });
export type CliGrant = z.infer<typeof cliGrantSchema>;
export const CLI_GRANT_SECONDS = 60;

/** A device sign-in under way (the provider's device code), held by the CLI that asks for it. */
export const cliDeviceHandleSchema = z.object({ deviceCode: z.string(), intervalSeconds: z.number().int().positive() });
export type CliDeviceHandle = z.infer<typeof cliDeviceHandleSchema>;

export const SESSION_COOKIE = "berth_session";
export const PENDING_SIGN_IN_COOKIE = "berth_sign_in";
export const PENDING_SIGN_IN_SECONDS = 600;

type Purpose = "session" | "sign-in" | "cli-grant" | "cli-session" | "cli-device";
const PURPOSES: Purpose[] = ["session", "sign-in", "cli-grant", "cli-session", "cli-device"];

/**
 * One key per purpose from the configured secret, so that a sealed sign-in can never pass for a
 * session, nor a CLI's token for a browser's cookie (or the other way round).
 */
function keyFor(secret: string, purpose: Purpose): Uint8Array {
  return new Uint8Array(hkdfSync("sha256", secret, "berth.dev/sealed-cookies", purpose, 32));
}

export class CookieSealer {
  private readonly keys: Record<Purpose, Uint8Array>;

  constructor(secret: string) {
    this.keys = Object.fromEntries(PURPOSES.map((purpose) => [purpose, keyFor(secret, purpose)])) as Record<Purpose, Uint8Array>;
  }

  sealSession(session: Session, maxAgeSeconds: number): Promise<string> {
    return this.seal("session", sessionSchema.parse(session), maxAgeSeconds);
  }

  openSession(sealed: string | undefined): Promise<Session | null> {
    return this.open("session", sealed, sessionSchema);
  }

  sealPendingSignIn(pending: PendingSignIn): Promise<string> {
    return this.seal("sign-in", pendingSignInSchema.parse(pending), PENDING_SIGN_IN_SECONDS);
  }

  openPendingSignIn(sealed: string | undefined): Promise<PendingSignIn | null> {
    return this.open("sign-in", sealed, pendingSignInSchema);
  }

  sealCliGrant(grant: CliGrant): Promise<string> {
    return this.seal("cli-grant", cliGrantSchema.parse(grant), CLI_GRANT_SECONDS);
  }

  openCliGrant(sealed: string | undefined): Promise<CliGrant | null> {
    return this.open("cli-grant", sealed, cliGrantSchema);
  }

  /** The CLI's bearer token holds its session as the browser's cookie holds its own. */
  sealCliSession(session: Session, maxAgeSeconds: number): Promise<string> {
    return this.seal("cli-session", sessionSchema.parse(session), maxAgeSeconds);
  }

  openCliSession(sealed: string | undefined): Promise<Session | null> {
    return this.open("cli-session", sealed, sessionSchema);
  }

  sealCliDeviceHandle(handle: CliDeviceHandle, maxAgeSeconds: number): Promise<string> {
    return this.seal("cli-device", cliDeviceHandleSchema.parse(handle), maxAgeSeconds);
  }

  openCliDeviceHandle(sealed: string | undefined): Promise<CliDeviceHandle | null> {
    return this.open("cli-device", sealed, cliDeviceHandleSchema);
  }

  private seal(purpose: Purpose, payload: Record<string, unknown>, maxAgeSeconds: number): Promise<string> {
    return new EncryptJWT({ data: payload })
      .setProtectedHeader({ alg: "dir", enc: "A256GCM", typ: purpose })
      .setIssuedAt()
      .setExpirationTime(`${maxAgeSeconds}s`)
      .encrypt(this.keys[purpose]);
  }

  /** The sealed payload, or null when it is absent, tampered with, expired or of another purpose. */
  private async open<T>(purpose: Purpose, sealed: string | undefined, schema: z.ZodType<T>): Promise<T | null> {
    if (!sealed) return null;
    try {
      const { payload, protectedHeader } = await jwtDecrypt(sealed, this.keys[purpose], { keyManagementAlgorithms: ["dir"], contentEncryptionAlgorithms: ["A256GCM"] });
      if (protectedHeader.typ !== purpose) return null;
      const parsed = schema.safeParse(payload.data);
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }
}
