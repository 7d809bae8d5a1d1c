import { describe, expect, it } from "vitest";
import type { AuthConfig } from "../config/auth-config.ts";
import type { TokenIdentity } from "../kube/access-reviews.ts";
import { AuthenticationError, Authenticator } from "./authenticate.ts";
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

function authenticator(config: AuthConfig, now = () => 0) {
  const cluster = tokens();
  return { cluster, authenticator: new Authenticator({ config, sealer, reviewToken: cluster.reviewToken, oidc: null, berth: async () => ({ username: "system:serviceaccount:berth-system:berth", groups: [] }), now }) };
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

describe("a session cookie", () => {
  it("is the person it was sealed for, impersonated", async () => {
    const caller = await authenticator(base).authenticator.authenticate(request(await withSession({ method: "oidc", person: { username: "alex", groups: ["oidc:team-a"] } })));
    expect(caller).toMatchObject({ signedInWith: "oidc", credential: { kind: "impersonate", person: { username: "alex" } }, ambient: true });
  });

  it("is nobody once its tokens expired and there is nothing to refresh them with", async () => {
    const session: Session = { method: "oidc", person: { username: "alex", groups: [] }, refreshAt: 1_000 };
    expect(await authenticator(base, () => 2_000).authenticator.authenticate(request(await withSession(session)))).toBeNull();
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
