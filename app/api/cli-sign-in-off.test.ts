import { afterAll, beforeAll, expect, it } from "vitest";
import { pkceChallengeOf } from "@/lib/domain/cli-sign-in.ts";
import { issueBerthToken } from "@/lib/identity/cli-tokens.ts";
import { startApiUnderTest, type ApiUnderTest } from "./testing/api-under-test.ts";

// A Berth that signs people in through an authenticating proxy has no provider for berth login to
// send the browser to: it says so, and takes no Berth token.

let api: ApiUnderTest;

beforeAll(async () => {
  api = await startApiUnderTest();
}, 120_000);
afterAll(() => api?.stop(), 120_000);

it("says berth login must use a token instead", async () => {
  const query = { cliRedirect: "http://127.0.0.1:41234/callback", cliChallenge: await pkceChallengeOf("v".repeat(43)), cliState: "s".repeat(22) };
  expect(await api.call("signIn", null, { query })).toMatchObject({ status: 400, json: { code: "cli-sign-in-off", detail: expect.stringContaining("berth login --token") } });
});

it("says berth login --device must use a token instead", async () => {
  expect(await api.call("beginCliDeviceSignIn", null, { headers: { origin: null } })).toMatchObject({ status: 400, json: { code: "cli-sign-in-off", detail: expect.stringContaining("berth login --token") } });
});

it("takes no Berth token, even one it sealed itself", async () => {
  const { token } = await issueBerthToken(api.runtime.identity.sealer, { method: "oidc", person: { username: "alex@berth.example", groups: [] } }, 60);
  expect((await api.call("whoAmI", null, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
});
