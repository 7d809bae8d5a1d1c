import { describe, expect, it } from "vitest";
import type { AuthConfig } from "../config/auth-config.ts";
import type { TokenIdentity } from "../kube/access-reviews.ts";
import { AuthenticationError, Authenticator } from "./authenticate.ts";
import { issueBerthToken } from "./cli-tokens.ts";
import type { OidcSignIn } from "./oidc-sign-in.ts";
import { CookieSealer, SESSION_COOKIE, type Session } from "./sealed-cookies.ts";

// Who a request is from, by each way Berth accepts: a bearer token (TokenReview), an
// authenticating proxy's headers (only from its addresses), a sealed session, or nobody.

const sealer = new CookieSealer("0123456789abcdef0123456789abcdef");
const base: AuthConfig = { mode: "oidc", publicUrl: "https://berth.example.com", allowedHosts: ["berth.example.com"], sessionSecret: null, sessionMaxAgeSeconds: 3600, oidc: null, proxy: null };
const proxyConfig: AuthConfig = { ...base, mode: "proxy", proxy: { trustedAddresses: ["10.0.0.0/24"], userHeader: "X-Remote-User", groupHeader: "X-Remote-Group" } };

/** TokenReview as a cluster with one valid token, "good", for alice. */
function tokens() {
  const reviewed: string[] = [];
  return {
    reviewed,
    reviewToken: async (token: string): Promise<TokenIdentity> => {
      reviewed.push(token);
      return token === "good" ? { authenticated: true, person: { username: "alice", groups: ["team-a", "system:authenticated"] } } : { authenticated: false, error: "invalid bearer token" };
    },
  };
}

/** A provider that refreshes every session it is asked to, for another hour. */
const refreshingProvider = { refresh: async (session: Session) => ({ ...session, refreshAt: 3_600_000 }) } as Pick<OidcSignIn, "refresh"> as OidcSignIn;

function authenticator(config: AuthConfig, now = () => 0, oidc: OidcSignIn | null = null) {
  const cluster = tokens();
  return { cluster, authenticator: new Authenticator({ config, sealer, reviewToken: cluster.reviewToken, oidc, berth: async () => ({ username: "system:serviceaccount:berth-system:berth", groups: [] }), now }) };
}

const request = (headers: Record<string, string>, peerAddress: string | null = "10.0.0.7") => ({ headers: new Headers(headers), peerAddress });
const withSession = async (session: Session) => ({ cookie: `other=1; ${SESSION_COOKIE}=${await sealer.sealSession(session, 60)}` });

describe("a bearer token", () => {
  it("is the person TokenReview says, calling Kubernetes with their own token", async () => {
    const caller = await authenticator(base).authenticator.authenticate(request({ authorization: "Bearer good" }));
    expect(caller).toMatchObject({ person: { username: "alice" }, credential: { kind: "token", token: "good" }, ambient: false });
  });

  it("is refused when Kubernetes does not accept it, in its words", async () => {
    await expect(authenticator(base).authenticator.authenticate(request({ authorization: "Bearer forged" }))).rejects.toThrow("Kubernetes does not accept the token: invalid bearer token");
  });

  it("is reviewed once within the cache's lifetime", async () => {
    const { cluster, authenticator: auth } = authenticator(base);
    await auth.authenticate(request({ authorization: "Bearer good" }));
    await auth.authenticate(request({ authorization: "Bearer good" }));
    expect(cluster.reviewed).toEqual(["good"]);
  });

  it("is refused when the header is not a bearer token", async () => {
    await expect(authenticator(base).authenticator.authenticate(request({ authorization: "Basic YWxpY2U6cA==" }))).rejects.toThrow(AuthenticationError);
  });
});

describe("a Berth token (berth login through the browser)", () => {
  const alex: Session = { method: "oidc", person: { username: "alex", groups: ["oidc:team-a"] }, refreshAt: 1_000 };
  const bearer = async (session: Session, seal = sealer) => ({ authorization: `Bearer ${(await issueBerthToken(seal, session, 60)).token}` });

  it("is the person it was issued to, impersonated, and never ambient", async () => {
    const caller = await authenticator(base).authenticator.authenticate(request(await bearer(alex)));
    expect(caller).toMatchObject({ person: { username: "alex" }, signedInWith: "oidc", credential: { kind: "impersonate" }, ambient: false });
  });

  it("is never sent to TokenReview", async () => {
    const { cluster, authenticator: auth } = authenticator(base);
    await auth.authenticate(request(await bearer(alex)));
    expect(cluster.reviewed).toEqual([]);
  });

  it("is refused when another Berth sealed it, saying to log in again", async () => {
    const elsewhere = new CookieSealer("another-berth's-secret-0123456789abcdef");
    await expect(authenticator(base).authenticator.authenticate(request(await bearer(alex, elsewhere)))).rejects.toThrow(/run `berth login` again/);
  });

  it("is refused when it is a browser's session cookie presented as one", async () => {
    const cookie = await sealer.sealSession(alex, 60);
    await expect(authenticator(base).authenticator.authenticate(request({ authorization: `Bearer berth_${cookie}` }))).rejects.toThrow(AuthenticationError);
  });

  it("is refused once its provider tokens expired and cannot be refreshed", async () => {
    await expect(authenticator(base, () => 2_000).authenticator.authenticate(request(await bearer(alex)))).rejects.toThrow(/berth login/);
  });

  it("once refreshed, is handed back as a new Berth token, not as a cookie", async () => {
    const caller = await authenticator(base, () => 2_000, refreshingProvider).authenticator.authenticate(request(await bearer(alex)));
    expect(caller?.renewedSession).toEqual({ session: { ...alex, refreshAt: 3_600_000 }, carriedIn: "berth-token" });
  });
});

describe("a session cookie", () => {
  it("is the person it was sealed for, impersonated", async () => {
    const caller = await authenticator(base).authenticator.authenticate(request(await withSession({ method: "oidc", person: { username: "alex", groups: ["oidc:team-a"] } })));
    expect(caller).toMatchObject({ signedInWith: "oidc", credential: { kind: "impersonate", person: { username: "alex" } }, ambient: true });
  });

  it("is nobody once its tokens expired and there is nothing to refresh them with", async () => {
    const session: Session = { method: "oidc", person: { username: "alex", groups: [] }, refreshAt: 1_000 };
    expect(await authenticator(base, () => 2_000).authenticator.authenticate(request(await withSession(session)))).toBeNull();
  });

  it("once refreshed, is handed back as a new cookie", async () => {
    const session: Session = { method: "oidc", person: { username: "alex", groups: [] }, refreshAt: 1_000 };
    const caller = await authenticator(base, () => 2_000, refreshingProvider).authenticator.authenticate(request(await withSession(session)));
    expect(caller?.renewedSession?.carriedIn).toBe("cookie");
  });

  it("is not a Berth token's session, which only a bearer header carries", async () => {
    const { token } = await issueBerthToken(sealer, { method: "oidc", person: { username: "alex", groups: [] } }, 60);
    expect(await authenticator(base).authenticator.authenticate(request({ cookie: `${SESSION_COOKIE}=${token.slice("berth_".length)}` }))).toBeNull();
  });

  it("in token mode is the token's person now, not when it was sealed", async () => {
    const caller = await authenticator(base).authenticator.authenticate(request(await withSession({ method: "token", person: { username: "stale", groups: [] }, token: "good" })));
    expect(caller?.person.username).toBe("alice");
  });

  it("in token mode is nobody once Kubernetes stops accepting the token", async () => {
    expect(await authenticator(base).authenticator.authenticate(request(await withSession({ method: "token", person: { username: "alice", groups: [] }, token: "revoked" })))).toBeNull();
  });

  it("absent is nobody", async () => {
    expect(await authenticator(base).authenticator.authenticate(request({}))).toBeNull();
  });
});

describe("an authenticating proxy's headers", () => {
  it("are the person when they come from the proxy", async () => {
    const caller = await authenticator(proxyConfig).authenticator.authenticate(request({ "x-remote-user": "carol", "x-remote-group": "ops, team-b" }));
    expect(caller).toMatchObject({ person: { username: "carol", groups: ["ops", "team-b"] }, signedInWith: "proxy", credential: { kind: "impersonate" } });
  });

  it("are refused from any other address", async () => {
    await expect(authenticator(proxyConfig).authenticator.authenticate(request({ "x-remote-user": "carol" }, "192.168.1.9"))).rejects.toThrow(/not a trusted authenticating proxy/);
  });

  it("are trusted from an IPv4 proxy seen on a dual-stack socket", async () => {
    expect((await authenticator(proxyConfig).authenticator.authenticate(request({ "x-remote-user": "carol" }, "::ffff:10.0.0.7")))?.person.username).toBe("carol");
  });

  it("never carry a system: group", async () => {
    const caller = await authenticator(proxyConfig).authenticator.authenticate(request({ "x-remote-user": "carol", "x-remote-group": "system:masters,ops" }));
    expect(caller?.person.groups).toEqual(["ops"]);
  });

  it("are ignored in every other mode", async () => {
    expect(await authenticator(base).authenticator.authenticate(request({ "x-remote-user": "carol" }))).toBeNull();
  });
});

describe("none mode", () => {
  it("makes everyone Berth itself, with no impersonation", async () => {
    const caller = await authenticator({ ...base, mode: "none" }).authenticator.authenticate(request({}, "127.0.0.1"));
    expect(caller).toMatchObject({ signedInWith: "none", credential: { kind: "berth" }, ambient: true });
  });
});
