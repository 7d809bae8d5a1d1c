import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { healthProbeAnswerer } from "@/lib/server/health-probe.ts";
import { checkHealth, recentHealth } from "@/lib/server/health.ts";
import { startApiUnderTest, type ApiUnderTest } from "./testing/api-under-test.ts";

// Health probes answered as they arrive, before Next.js: the same answer the route gives anyone
// who is not signed in, and nothing for a request that may be a signed-in person's.

const TO_THE_ROUTE = 599;

let api: ApiUnderTest;
let server: Server;
let base: string;

beforeAll(async () => {
  api = await startApiUnderTest();
  const answer = healthProbeAnswerer(Promise.resolve(api.runtime));
  // What the fast path leaves alone, this server marks, where Next.js would serve the route.
  server = createServer((request, response) => {
    if (!answer(request, response)) response.writeHead(TO_THE_ROUTE).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // A finished check to answer from, as the first probe through the route leaves one.
  expect((await api.call("health", null)).status).toBe(200);
}, 120_000);
afterAll(async () => {
  server?.close();
  await api?.stop();
}, 120_000);

describe("a health probe answered before Next.js", () => {
  it("gets what the route tells anyone who is not signed in", async () => {
    const fast = await fetch(`${base}/api/health`);
    const route = await api.call("health", null);
    expect({ status: fast.status, body: await fast.json() }).toEqual({ status: route.status, body: route.json });
  });

  it.each([
    ["/api/health/ready", "readiness"],
    ["/api/health/live", "liveness"],
  ] as const)("answers %s as its route does", async (probePath, id) => {
    const fast = await fetch(`${base}${probePath}`);
    const route = await api.call(id, null);
    expect({ status: fast.status, body: await fast.json() }).toEqual({ status: route.status, body: route.json });
  });

  it("carries the API's security headers and is never cached", async () => {
    const fast = await fetch(`${base}/api/health`);
    expect(Object.fromEntries(["x-content-type-options", "x-frame-options", "content-security-policy", "cache-control"].map((name) => [name, fast.headers.get(name)]))).toEqual({
      "x-content-type-options": "nosniff",
      "x-frame-options": "DENY",
      "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
      "cache-control": "no-store",
    });
  });

  it("answers HEAD with the status and no body", async () => {
    const fast = await fetch(`${base}/api/health`, { method: "HEAD" });
    expect([fast.status, await fast.text()]).toEqual([200, ""]);
  });

  it.each([
    ["a cookie", { cookie: "berth_session=anything" }],
    ["a bearer token", { authorization: "Bearer some-token" }],
  ])("leaves a probe with %s to the route, which may tell a signed-in person more", async (_, headers) => {
    expect((await fetch(`${base}/api/health`, { headers })).status).toBe(TO_THE_ROUTE);
  });

  it("leaves every other request to the route", async () => {
    const answers = await Promise.all(["/api/health?verbose=1", "/api/v1/sandboxes", "/"].map(async (path) => (await fetch(`${base}${path}`)).status));
    expect(answers).toEqual([TO_THE_ROUTE, TO_THE_ROUTE, TO_THE_ROUTE]);
  });
});

describe("a probe answered from memory", () => {
  it("gets the last finished check while a new one is stuck on the store, and nothing once that is too old", async () => {
    const { store } = api.runtime;
    const ping = store.ping;
    let release = () => {};
    await checkHealth(api.runtime);
    store.ping = () => new Promise<void>((resolve) => (release = resolve));
    try {
      // Older than maxAgeMs: a new check starts, and hangs on the store.
      const meanwhile = recentHealth(api.runtime, { maxAgeMs: 0, staleAfterMs: 60_000 });
      await new Promise((resolve) => setTimeout(resolve, 30));
      const later = recentHealth(api.runtime, { maxAgeMs: 60_000, staleAfterMs: 20 });
      expect({ meanwhile: meanwhile?.status, later }).toEqual({ meanwhile: "ok", later: null });
    } finally {
      store.ping = ping;
      release();
    }
  });
});
