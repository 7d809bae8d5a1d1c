import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliDeviceAuthorizationSchema, cliTokenSchema, pkceChallengeOf } from "@/lib/domain/cli-sign-in.ts";
import type { Session } from "@/lib/identity/sealed-cookies.ts";
import { enterDeviceCode } from "@/lib/identity/testing/device-code-browser.ts";
import { startApiUnderTest, type ApiUnderTest } from "./testing/api-under-test.ts";

// berth login's part of the API, on a Berth that signs people in with an OpenID provider (the
// embedded one): what /auth/sign-in takes from the CLI, and the exchange of the loopback's code
// for a Berth token, which only the verifier the sign-in began with can make. (The whole round
// trip, through a browser and the provider, is e2e/cli-login.flow.spec.ts.)

let api: ApiUnderTest;

beforeAll(async () => {
  // Every call here comes from one address: its sign-in rate is not what these tests are about.
  api = await startApiUnderTest({ BERTH_AUTH_MODE: "oidc", BERTH_SIGN_INS_PER_MINUTE: "1000" });
}, 120_000);
afterAll(() => api?.stop(), 120_000);

const VERIFIER = "v".repeat(20) + "-verifier-of-the-cli-that-began";
const ALEX: Session = { method: "oidc", person: { username: "alex@berth.example", groups: ["oidc:team-a"] } };
const cliQuery = async () => ({ cliRedirect: "http://127.0.0.1:41234/callback", cliChallenge: await pkceChallengeOf(VERIFIER), cliState: "s".repeat(22) });

/** What the callback hands the browser to take to the CLI, as the callback seals it. */
async function codeFor(session: Session, verifier = VERIFIER): Promise<string> {
  return api.runtime.identity.sealer.sealCliGrant({ id: randomBytes(16).toString("base64url"), session, challenge: await pkceChallengeOf(verifier) });
}

const exchange = (code: string, verifier = VERIFIER) => api.call("exchangeCliCode", null, { body: { code, verifier }, headers: { origin: null } });

describe("GET /auth/sign-in for berth login", () => {
  it("refuses a redirect anywhere but a loopback port, naming the parameter", async () => {
    const answer = await api.call("signIn", null, { query: { ...(await cliQuery()), cliRedirect: "https://attacker.example/callback" } });
    expect([answer.status, (answer.json as { errors: { field: string }[] }).errors[0]?.field]).toEqual([400, "cliRedirect"]);
  });

  it("refuses the CLI's parameters given only in part", async () => {
    const { cliRedirect, cliState } = await cliQuery();
    expect(await api.call("signIn", null, { query: { cliRedirect, cliState } })).toMatchObject({ status: 400, json: { code: "cli-sign-in-incomplete" } });
  });

  it("refuses localhost, which may resolve elsewhere: only a loopback IP address", async () => {
    const answer = await api.call("signIn", null, { query: { ...(await cliQuery()), cliRedirect: "http://localhost:41234/callback" } });
    expect(answer.status).toBe(400);
  });

  it("sends the browser to the provider asking the person to sign in, so no page can sign the CLI in unseen", async () => {
    const answer = await api.call("signIn", null, { query: await cliQuery(), headers: { host: new URL(api.runtime.config.auth.publicUrl).host } });
    expect([answer.status, new URL(answer.headers.get("location")!).searchParams.get("prompt")]).toEqual([303, expect.stringContaining("login")]);
  });
});

describe("POST /auth/cli-token", () => {
  it("answers a Berth token for the person the code was made for, with what they may do", async () => {
    const answer = await exchange(await codeFor(ALEX));
    expect([answer.status, cliTokenSchema.parse(answer.json).you.person.username]).toEqual([200, "alex@berth.example"]);
  });

  it("answers a token that Berth then takes as that person", async () => {
    const { token } = cliTokenSchema.parse((await exchange(await codeFor(ALEX))).json);
    const you = await api.call("whoAmI", null, { headers: { authorization: `Bearer ${token}` } });
    expect([you.status, (you.json as { person: { username: string } }).person.username]).toEqual([200, "alex@berth.example"]);
  });

  it("refuses the code with any verifier but the one the sign-in began with", async () => {
    const answer = await exchange(await codeFor(ALEX), "w".repeat(43));
    expect(answer).toMatchObject({ status: 400, json: { code: "cli-code-invalid", detail: expect.stringContaining("only the berth login that opened the browser") } });
  });

  it("refuses a code used once already", async () => {
    const code = await codeFor(ALEX);
    await exchange(code);
    expect(await exchange(code)).toMatchObject({ status: 400, json: { code: "cli-code-used" } });
  });

  it("still takes the code with the right verifier after a wrong one was tried", async () => {
    const code = await codeFor(ALEX);
    await exchange(code, "w".repeat(43));
    expect((await exchange(code)).status).toBe(200);
  });

  it("refuses a code that is not one Berth made", async () => {
    expect(await exchange("a.b.c.d.e")).toMatchObject({ status: 400, json: { code: "cli-code-invalid" } });
  });

  it("records in the audit log who was signed in", async () => {
    await exchange(await codeFor(ALEX));
    const latest = (await api.runtime.store.audit.listChanges({ limit: 1 })).items[0];
    expect(latest).toMatchObject({ action: "session.sign-in", actor: "alex@berth.example", outcome: "Succeeded" });
  });

  it("needs no Origin: it sets no cookie, so a forged cross-site post gains nothing", async () => {
    expect((await exchange(await codeFor(ALEX))).headers.get("set-cookie")).toBeNull();
  });

  it("refuses a token that was changed on the way, as unauthenticated", async () => {
    const { token } = cliTokenSchema.parse((await exchange(await codeFor(ALEX))).json);
    const changed = `${token.slice(0, -4)}${token.slice(-4) === "AAAA" ? "BBBB" : "AAAA"}`;
    expect((await api.call("whoAmI", null, { headers: { authorization: `Bearer ${changed}` } })).status).toBe(401);
  });

  it("refuses a token whose sign-in can no longer be refreshed, saying to log in again", async () => {
    const { token } = cliTokenSchema.parse((await exchange(await codeFor({ ...ALEX, refreshAt: 1 }))).json);
    const answer = await api.call("whoAmI", null, { headers: { authorization: `Bearer ${token}` } });
    expect(answer).toMatchObject({ status: 401, json: { detail: expect.stringContaining("run `berth login` again") } });
  });
});

describe("berth login --device (POST /auth/cli-device, then /auth/cli-device/token)", () => {
  const begin = async () => cliDeviceAuthorizationSchema.parse((await api.call("beginCliDeviceSignIn", null, { headers: { origin: null } })).json);
  const poll = (deviceCode: string) => api.call("pollCliDeviceSignIn", null, { body: { deviceCode }, headers: { origin: null } });

  it("answers the code to enter and the provider's address with it", async () => {
    const started = await begin();
    expect(started.verificationUriComplete).toContain(`user_code=${started.userCode}`);
  });

  it("answers 202, ask again later, until the person has entered the code", async () => {
    const started = await begin();
    expect(await poll(started.deviceCode)).toMatchObject({ status: 202, json: { pending: true, intervalSeconds: started.intervalSeconds } });
  });

  it("answers a Berth token for the person who entered the code", async () => {
    const started = await begin();
    await enterDeviceCode(started.verificationUriComplete!, { person: "bea" });
    const answer = await poll(started.deviceCode);
    expect([answer.status, cliTokenSchema.parse(answer.json).you.person.username]).toEqual([200, "bea@berth.example"]);
  });

  it("records in the audit log who was signed in, and how", async () => {
    const started = await begin();
    await enterDeviceCode(started.verificationUriComplete!, { person: "victor" });
    await poll(started.deviceCode);
    const latest = (await api.runtime.store.audit.listChanges({ limit: 1 })).items[0];
    expect(latest).toMatchObject({ action: "session.sign-in", actor: "victor@berth.example", details: { through: "berth login --device" } });
  });

  it("says the sign-in was refused when the person cancelled it at the provider", async () => {
    const started = await begin();
    await enterDeviceCode(started.verificationUriComplete!, { person: "bea", cancel: true });
    expect(await poll(started.deviceCode)).toMatchObject({ status: 400, json: { code: "cli-sign-in-failed", detail: expect.stringContaining("refused at the provider") } });
  });

  it("refuses a device code that Berth did not seal", async () => {
    expect(await poll("a.b.c.d.e")).toMatchObject({ status: 400, json: { code: "cli-device-invalid" } });
  });

  it("refuses the provider's own device code: only the handle Berth sealed is taken", async () => {
    const started = await begin();
    const sealed = await api.runtime.identity.sealer.openCliDeviceHandle(started.deviceCode);
    expect((await poll(sealed!.deviceCode)).status).toBe(400);
  });
});
