import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OidcConfig } from "../config/auth-config.ts";
import { startEmbeddedOidcProvider, type EmbeddedOidcProvider } from "./embedded-oidc-provider.ts";
import { OidcSignIn, personFromClaims, SignInError } from "./oidc-sign-in.ts";
import { enterDeviceCode } from "./testing/device-code-browser.ts";

// Signing in through the embedded provider over real HTTP, as a browser would: the authorization
// request, the provider's page, the redirect back with a code, and the code exchanged with PKCE.

const BERTH = "http://127.0.0.1:3999";
const EMBEDDED: OidcConfig = {
  issuer: "embedded",
  clientId: "berth",
  clientSecret: null,
  scopes: ["openid", "profile", "email", "groups", "offline_access"],
  usernameClaim: "email",
  usernamePrefix: "",
  groupsClaim: "groups",
  groupsPrefix: "oidc:",
};

let provider: EmbeddedOidcProvider;
let signIn: OidcSignIn;

beforeAll(async () => {
  provider = await startEmbeddedOidcProvider({ redirectOrigins: [BERTH], tokenTtlSeconds: 60 });
  signIn = new OidcSignIn({ issuer: provider.issuer, config: EMBEDDED, publicUrl: BERTH });
});
afterAll(() => provider.stop());

/** A browser's part: follows the provider's redirects with its cookies until it is sent back to Berth. */
async function browse(start: URL, choose?: (page: string, at: URL) => { action: URL; person: string }): Promise<URL> {
  const cookies = new Map<string, string>();
  let url = start;
  let request: RequestInit = {};
  for (let hop = 0; hop < 10; hop++) {
    if (url.origin === BERTH) return url;
    const response = await fetch(url, { ...request, redirect: "manual", headers: { ...(request.headers as Record<string, string>), cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join("; ") } });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair!.indexOf("=");
      cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    request = {};
    const location = response.headers.get("location");
    if (location) {
      url = new URL(location, url);
      continue;
    }
    const page = await response.text();
    if (!choose) throw new Error(`the provider showed a page (${response.status}): ${page.slice(0, 200)}`);
    const { action, person } = choose(page, url);
    url = action;
    request = { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: `person=${person}` };
  }
  throw new Error("too many redirects");
}

describe("signing in through the embedded provider", () => {
  it("signs the hinted person in, with their groups prefixed", async () => {
    const { redirectTo, pending } = await signIn.begin("/sandboxes", "alex@berth.example");
    const session = await signIn.complete(await browse(redirectTo), pending);
    expect(session.person).toEqual({ username: "alex@berth.example", groups: ["oidc:team-a"] });
  });

  it("shows every demo person when none is hinted, and signs in the one chosen", async () => {
    const { redirectTo, pending } = await signIn.begin("/");
    const pages: string[] = [];
    const callback = await browse(redirectTo, (page, at) => {
      pages.push(page);
      return { action: new URL(/action="([^"]+)"/.exec(page)![1]!, at), person: "paula" };
    });
    const session = await signIn.complete(callback, pending);
    expect([pages[0]?.match(/<strong>[^<]+<\/strong>/g), session.person.username]).toEqual([
      ["<strong>Paula Platform</strong>", "<strong>Alex Developer</strong>", "<strong>Bea Developer</strong>", "<strong>Victor Viewer</strong>"],
      "paula@berth.example",
    ]);
  });

  it("refuses a callback whose state is not the one this sign-in sent", async () => {
    const { redirectTo, pending } = await signIn.begin("/", "bea@berth.example");
    const callback = await browse(redirectTo);
    await expect(signIn.complete(callback, { ...pending, state: "someone-elses" })).rejects.toThrow(SignInError);
  });

  it("refuses a code exchanged without the PKCE verifier it was issued for", async () => {
    const { redirectTo, pending } = await signIn.begin("/", "bea@berth.example");
    const callback = await browse(redirectTo);
    await expect(signIn.complete(callback, { ...pending, codeVerifier: "x".repeat(43) })).rejects.toThrow(SignInError);
  });

  it("keeps a refresh token, and refreshes the session with it", async () => {
    const { redirectTo, pending } = await signIn.begin("/", "victor@berth.example");
    const session = await signIn.complete(await browse(redirectTo), pending);
    const refreshed = await signIn.refresh(session);
    expect([Boolean(session.refreshToken), refreshed?.person.username]).toEqual([true, "victor@berth.example"]);
  });

  it("ends the session when the provider refuses the refresh token", async () => {
    expect(await signIn.refresh({ method: "oidc", person: { username: "x", groups: [] }, refreshToken: "forged" })).toBeNull();
  });
});

describe("signing a terminal in by the device flow", () => {
  it("says the embedded provider offers it", async () => {
    expect(await signIn.offersDeviceFlow()).toBe(true);
  });

  it("is pending until the person has entered the code", async () => {
    const started = await signIn.beginDevice();
    expect(await signIn.pollDevice(started.deviceCode)).toEqual({ pending: true, slowDown: false });
  });

  it("signs in the person who entered the code, with a refresh token", async () => {
    const started = await signIn.beginDevice();
    await enterDeviceCode(started.verificationUriComplete!, { person: "paula" });
    const answer = await signIn.pollDevice(started.deviceCode);
    expect("session" in answer && [answer.session.person.username, Boolean(answer.session.refreshToken)]).toEqual(["paula@berth.example", true]);
  });

  it("says the sign-in was refused when the person cancels at the provider", async () => {
    const started = await signIn.beginDevice();
    await enterDeviceCode(started.verificationUriComplete!, { person: "paula", cancel: true });
    await expect(signIn.pollDevice(started.deviceCode)).rejects.toThrow(/refused at the provider/);
  });

  it("refuses a device code the provider never gave", async () => {
    await expect(signIn.pollDevice("forged")).rejects.toThrow(SignInError);
  });
});

describe("the Kubernetes user an ID token names", () => {
  const mapping = { usernameClaim: "sub", usernamePrefix: "https://id.example.com#", groupsClaim: "groups", groupsPrefix: "oidc:" };

  it("is the username claim with its prefix", () => {
    expect(personFromClaims({ sub: "1234", groups: ["devs"] }, mapping)).toEqual({ username: "https://id.example.com#1234", groups: ["oidc:devs"] });
  });

  it("takes a single group stated as a string", () => {
    expect(personFromClaims({ sub: "1", groups: "devs" }, mapping).groups).toEqual(["oidc:devs"]);
  });

  it("never takes a system: group from a provider", () => {
    expect(personFromClaims({ sub: "1", groups: ["system:masters", "devs"] }, { ...mapping, groupsPrefix: "" }).groups).toEqual(["devs"]);
  });

  it("refuses a system: user name", () => {
    expect(() => personFromClaims({ sub: "system:admin" }, { ...mapping, usernamePrefix: "" })).toThrow(/reserved by Kubernetes/);
  });

  it("refuses an e-mail address the provider has not verified", () => {
    expect(() => personFromClaims({ email: "a@example.com", email_verified: false }, { ...mapping, usernameClaim: "email", usernamePrefix: "" })).toThrow(/not verified/);
  });

  it("refuses a token without the username claim, naming it", () => {
    expect(() => personFromClaims({ sub: "1" }, { ...mapping, usernameClaim: "email" })).toThrow(/no email claim/);
  });
});
