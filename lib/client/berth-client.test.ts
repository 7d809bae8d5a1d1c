import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startApiUnderTest, type ApiUnderTest } from "@/app/api/testing/api-under-test.ts";
import { serveRouteModules, type RouteServer } from "@/app/api/testing/route-server.ts";
import { serviceAccountToken } from "@/app/api/testing/service-account-tokens.ts";
import type { SandboxSpecInput } from "@/lib/domain/sandbox-spec.ts";
import { bearerTokenOf } from "@/lib/kube/cluster-connection.ts";
import { ApiProblem } from "./api-problem.ts";
import { allPages, createBerthClient, type BerthClient } from "./berth-client.ts";

// The typed client against Berth's route modules served over HTTP on the embedded cluster, with
// Kubernetes bearer tokens as the CLI sends them: answers come back in the domain's shapes,
// refusals as problems in the server's words.

const TEAM = "team-a";
let api: ApiUnderTest;
let server: RouteServer;
let admin: BerthClient;
let developer: BerthClient;
let stranger: BerthClient;

const ephemeral = (name: string): SandboxSpecInput => ({ name, namespace: TEAM, profile: "generic", workspace: { backend: "ephemeral" } });

beforeAll(async () => {
  api = await startApiUnderTest();
  await api.untilLive();
  server = await serveRouteModules(new URL(api.runtime.config.auth.publicUrl));
  const cluster = api.clusterAdmin();
  admin = createBerthClient({ server: server.url, token: bearerTokenOf(cluster)! });
  developer = createBerthClient({ server: server.url, token: await serviceAccountToken(cluster, { namespace: TEAM, name: "client-developer", roles: [{ clusterRole: "berth-developer", namespace: TEAM }] }) });
  stranger = createBerthClient({ server: server.url, token: await serviceAccountToken(cluster, { namespace: TEAM, name: "client-stranger" }) });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await api?.stop();
});

describe("the typed client", () => {
  it("reads a created sandbox back with its dates as Dates", async () => {
    const created = await developer.createSandbox({ body: ephemeral("client-dates") });
    expect("id" in created && created.createdAt instanceof Date).toBe(true);
  });

  it("answers a dry run with the manifests the create would make", async () => {
    const answer = await developer.createSandbox({ query: { dryRun: "true" }, body: ephemeral("client-preview") });
    expect("dryRun" in answer && answer.manifests.sandbox.kind).toBe("Sandbox");
  });

  it("fills path parameters and reads the answer of the row", async () => {
    const created = await developer.createSandbox({ body: ephemeral("client-get") });
    const id = "id" in created ? created.id : "";
    expect((await developer.getSandbox({ params: { id } })).name).toBe("client-get");
  });

  it("follows a list's cursor to its last page", async () => {
    for (const name of ["client-page-1", "client-page-2", "client-page-3"]) await developer.createSandbox({ body: ephemeral(name) });
    const names = (await allPages((cursor) => developer.listSandboxes({ query: { limit: 1, ...(cursor ? { cursor } : {}) } }))).map((one) => one.name);
    expect(names).toEqual(expect.arrayContaining(["client-page-1", "client-page-2", "client-page-3"]));
  });

  it("throws a refused input as a problem naming the field", async () => {
    const refusal = await developer.createSandbox({ body: { ...ephemeral("Not A Name") } }).catch((error: unknown) => error);
    expect(refusal instanceof ApiProblem && { status: refusal.status, fields: refusal.fields.map((one) => one.field) }).toEqual({ status: 400, fields: ["name"] });
  });

  it("throws what Kubernetes refuses a person as a 403 problem in its words", async () => {
    const refusal = await stranger.createSandbox({ body: ephemeral("client-refused") }).catch((error: unknown) => error);
    expect(refusal instanceof ApiProblem && refusal.status).toBe(403);
  });

  it("tells the caller of a token Kubernetes does not accept, and throws 401", async () => {
    const unauthorized = vi.fn();
    const nobody = createBerthClient({ server: server.url, token: "not-a-token", onUnauthorized: unauthorized });
    const refusal = await nobody.whoAmI({}).catch((error: unknown) => error);
    expect([refusal instanceof ApiProblem && refusal.status, unauthorized.mock.calls.length]).toEqual([401, 1]);
  });

  it("says Berth did not answer when nothing listens at the address", async () => {
    const nowhere = createBerthClient({ server: "http://127.0.0.1:9", token: "t" });
    const failure = await nowhere.whoAmI({}).catch((error: unknown) => error);
    expect(failure instanceof ApiProblem && [failure.status, failure.title]).toEqual([0, "Berth did not answer"]);
  });

  it("calls a platform admin's endpoint with an admin's token", async () => {
    expect((await admin.listNodes({ query: { limit: 500 } })).items.length).toBeGreaterThan(0);
  });

  it("builds the URL of a row that does not answer JSON, for a stream", () => {
    expect(admin.url("events", { query: { sandbox: "00000000-0000-4000-8000-000000000000" } })).toBe(`${server.url}/api/v1/events?sandbox=00000000-0000-4000-8000-000000000000`);
  });
});
