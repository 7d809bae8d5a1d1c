import { timingSafeEqual } from "node:crypto";
import { BERTH_TOKEN_PREFIX, pkceChallengeOf } from "../domain/cli-sign-in.ts";
import type { CookieSealer, Session } from "./sealed-cookies.ts";

// The bearer tokens Berth issues to its command line (lib/domain/cli-sign-in.ts): a sealed
// session behind a prefix that no Kubernetes token has, and the PKCE check that lets only the
// process that began a sign-in collect its token.

export async function verifierMatches(verifier: string, challenge: string): Promise<boolean> {
  const computed = Buffer.from(await pkceChallengeOf(verifier));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

export function isBerthToken(token: string): boolean {
  return token.startsWith(BERTH_TOKEN_PREFIX);
}

export async function issueBerthToken(sealer: CookieSealer, session: Session, maxAgeSeconds: number, now = Date.now()): Promise<{ token: string; expiresAt: Date }> {
  const sealed = await sealer.sealCliSession(session, maxAgeSeconds);
  return { token: `${BERTH_TOKEN_PREFIX}${sealed}`, expiresAt: new Date(now + maxAgeSeconds * 1000) };
}

/** The session a Berth token holds; null when it is expired, tampered with, or not Berth's. */
export function openBerthToken(sealer: CookieSealer, token: string): Promise<Session | null> {
  return isBerthToken(token) ? sealer.openCliSession(token.slice(BERTH_TOKEN_PREFIX.length)) : Promise.resolve(null);
}
