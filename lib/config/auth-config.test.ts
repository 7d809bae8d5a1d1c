import { describe, expect, it } from "vitest";
import { resolveAuth } from "./auth-config.ts";

// Sign-in configuration: the embedded default signs people in through Berth's own provider;
// anything else must say where Berth is reached and how sessions are sealed, or Berth refuses
// to start, naming what is missing.

function resolved(env: Record<string, string>, cluster: "embedded" | "kubeconfig" = "embedded") {
  const problems: string[] = [];
  return { config: resolveAuth(env, cluster, problems), problems };
}

const REAL = { BERTH_PUBLIC_URL: "https://berth.example.com", BERTH_SESSION_SECRET: "0123456789abcdef0123456789abcdef", BERTH_OIDC_ISSUER: "https://id.example.com" };

describe("sign-in on the embedded defaults", () => {
  it("is OIDC through the embedded provider", () => {
    expect(resolved({}).config).toMatchObject({ mode: "oidc", oidc: { issuer: "embedded", usernameClaim: "email", groupsPrefix: "oidc:" } });
  });

  it("is reached at localhost on the server's port", () => {
    expect(resolved({ PORT: "3210" }).config?.publicUrl).toBe("http://localhost:3210");
  });

  it("answers to the loopback names too", () => {
    expect(resolved({}).config?.allowedHosts).toEqual(["localhost:3000", "127.0.0.1:3000", "[::1]:3000"]);
  });

  it("generates its session key (none is required)", () => {
    expect(resolved({}).config?.sessionSecret).toBeNull();
  });
});

describe("sign-in on a real cluster", () => {
  it("refuses to start without a public URL, a session secret and an issuer, naming each", () => {
    const { problems } = resolved({}, "kubeconfig");
    expect(problems.map((problem) => problem.split(" ")[0])).toEqual(["BERTH_PUBLIC_URL", "BERTH_SESSION_SECRET", "BERTH_OIDC_ISSUER"]);
  });

  it("refuses a session secret shorter than 32 characters", () => {
    expect(resolved({ ...REAL, BERTH_SESSION_SECRET: "short" }, "kubeconfig").problems[0]).toMatch(/^BERTH_SESSION_SECRET is too short \(5 characters\)/);
  });

  it("refuses a public URL with a path", () => {
    expect(resolved({ ...REAL, BERTH_PUBLIC_URL: "https://example.com/berth" }, "kubeconfig").problems[0]).toMatch(/^BERTH_PUBLIC_URL = "https:\/\/example.com\/berth": not an http\(s\) origin/);
  });

  it("prefixes a username claim other than email with the issuer, as the API server does", () => {
    expect(resolved(REAL, "kubeconfig").config?.oidc?.usernamePrefix).toBe("https://id.example.com#");
  });

  it("takes '-' as no prefix", () => {
    expect(resolved({ ...REAL, BERTH_OIDC_USERNAME_PREFIX: "-" }, "kubeconfig").config?.oidc?.usernamePrefix).toBe("");
  });

  it("answers only to the public URL's host unless told more", () => {
    expect(resolved({ ...REAL, BERTH_ALLOWED_HOSTS: "berth.internal:8080" }, "kubeconfig").config?.allowedHosts).toEqual(["berth.example.com", "berth.internal:8080"]);
  });
});

describe("the other modes", () => {
  it("refuses an unknown mode, listing the allowed ones", () => {
    expect(resolved({ BERTH_AUTH_MODE: "basic" }).problems).toEqual(['BERTH_AUTH_MODE = "basic": unknown sign-in mode. Allowed: oidc, token, proxy, none.']);
  });

  it("needs no issuer in token mode", () => {
    const { BERTH_OIDC_ISSUER: _unused, ...env } = REAL;
    expect(resolved({ ...env, BERTH_AUTH_MODE: "token" }, "kubeconfig").config).toMatchObject({ mode: "token", oidc: null });
  });

  it("needs the proxy's addresses in proxy mode", () => {
    expect(resolved({ ...REAL, BERTH_AUTH_MODE: "proxy" }, "kubeconfig").problems[0]).toMatch(/^BERTH_PROXY_TRUSTED_ADDRESSES is not set/);
  });

  it("refuses a proxy address that is not an IP or CIDR", () => {
    expect(resolved({ ...REAL, BERTH_AUTH_MODE: "proxy", BERTH_PROXY_TRUSTED_ADDRESSES: "10.0.0.0/24,proxy.local" }, "kubeconfig").problems[0]).toMatch(/^BERTH_PROXY_TRUSTED_ADDRESSES = "proxy.local": not an IP address or CIDR/);
  });

  it("trusts the proxy's X-Remote-User and X-Remote-Group headers by default", () => {
    expect(resolved({ ...REAL, BERTH_AUTH_MODE: "proxy", BERTH_PROXY_TRUSTED_ADDRESSES: "10.0.0.0/24" }, "kubeconfig").config?.proxy).toEqual({
      trustedAddresses: ["10.0.0.0/24"],
      userHeader: "X-Remote-User",
      groupHeader: "X-Remote-Group",
    });
  });

  it("runs without sign-in only when asked, on loopback names", () => {
    expect(resolved({ BERTH_AUTH_MODE: "none" }, "kubeconfig").config).toMatchObject({ mode: "none", publicUrl: "http://localhost:3000" });
  });
});
