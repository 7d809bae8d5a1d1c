import { describe, expect, it } from "vitest";
import { CookieSealer, type Session } from "./sealed-cookies.ts";

const session: Session = { method: "oidc", person: { username: "alex@berth.example", groups: ["oidc:team-a"] }, refreshToken: "r", refreshAt: 1 };
const sealer = new CookieSealer("0123456789abcdef0123456789abcdef");

describe("sealed session cookies", () => {
  it("open to what was sealed", async () => {
    expect(await sealer.openSession(await sealer.sealSession(session, 60))).toEqual(session);
  });

  it("hide what they hold", async () => {
    const sealed = await sealer.sealSession(session, 60);
    expect(Buffer.from(sealed.split(".").join(""), "base64url").toString("latin1")).not.toContain("alex");
  });

  it("do not open with another secret", async () => {
    const other = new CookieSealer("another-secret-another-secret-abcdef");
    expect(await other.openSession(await sealer.sealSession(session, 60))).toBeNull();
  });

  it("do not open once changed", async () => {
    const sealed = await sealer.sealSession(session, 60);
    const parts = sealed.split(".");
    parts[3] = parts[3]!.replace(/^./, (first) => (first === "A" ? "B" : "A"));
    expect(await sealer.openSession(parts.join("."))).toBeNull();
  });

  it("do not open once expired", async () => {
    expect(await sealer.openSession(await sealer.sealSession(session, -1))).toBeNull();
  });

  it("cannot pass a pending sign-in off as a session", async () => {
    const pending = await sealer.sealPendingSignIn({ codeVerifier: "v", state: "s", nonce: "n", returnTo: "/" });
    expect(await sealer.openSession(pending)).toBeNull();
  });

  it("treat garbage as no session", async () => {
    expect(await sealer.openSession("not-a-jwe")).toBeNull();
  });
});
