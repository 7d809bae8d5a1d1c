import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBareApiServer } from "../testing/bare-api-server.ts";
import type { ApiServer } from "./api-server.ts";
import { deriveKnownFields } from "./known-fields.ts";

// Unknown fields as the API server treats them: dropped with a warning by default, refused
// under fieldValidation=Strict (what kubectl sends), dropped silently under Ignore — for a
// built-in kind and for a custom resource alike.

let server: ApiServer;
let url: string;
let adminToken: string;

beforeAll(async () => {
  ({ server, url, adminToken } = await startBareApiServer());
});
afterAll(() => server.close());

const SANDBOXES = "/apis/agents.x-k8s.io/v1beta1/namespaces/default/sandboxes";
const CONFIG_MAPS = "/api/v1/namespaces/default/configmaps";

function send(method: string, path: string, body: unknown, contentType = "application/json") {
  return fetch(`${url}${path}`, { method, headers: { Authorization: `Bearer ${adminToken}`, "Content-Type": contentType }, body: JSON.stringify(body) });
}

const aPod = (name: string, container: Record<string, unknown> = {}) => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name },
  spec: { containers: [{ name: "main", image: "busybox", ...container }] },
});

const aSandbox = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: "agents.x-k8s.io/v1beta1",
  kind: "Sandbox",
  metadata: { name },
  spec: { podTemplate: { spec: { containers: [{ name: "agent", image: "busybox" }] } }, ...spec },
});

describe("a built-in kind", () => {
  it("refuses an unknown field under Strict, naming where it is", async () => {
    const response = await send("POST", "/api/v1/namespaces/default/pods?fieldValidation=Strict", aPod("strict", { colour: "blue" }));
    expect([response.status, ((await response.json()) as { message: string }).message]).toEqual([
      400, 'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].colour"',
    ]);
  });

  it("drops an unknown field by default and says so in a Warning header", async () => {
    const response = await send("POST", "/api/v1/namespaces/default/pods", aPod("warned", { colour: "blue" }));
    const created = (await response.json()) as { spec: { containers: Record<string, unknown>[] } };
    expect([response.status, response.headers.get("warning"), Object.hasOwn(created.spec.containers[0]!, "colour")]).toEqual([
      201, '299 - "unknown field \\"spec.containers[0].colour\\""', false,
    ]);
  });

  it("drops an unknown field without a word under Ignore", async () => {
    const response = await send("POST", `${CONFIG_MAPS}?fieldValidation=Ignore`, { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "ignored" }, extra: 1 });
    expect([response.status, response.headers.get("warning"), Object.hasOwn((await response.json()) as object, "extra")]).toEqual([201, null, false]);
  });

  it("keeps every key of a map, whatever its name", async () => {
    const response = await send("POST", `${CONFIG_MAPS}?fieldValidation=Strict`, { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "mapped", labels: { "app.kubernetes.io/name": "x" } }, data: { anything: "goes" } });
    expect(response.status).toBe(201);
  });

  it("refuses an unknown field a merge patch adds under Strict", async () => {
    await send("POST", CONFIG_MAPS, { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "patched" } });
    const response = await send("PATCH", `${CONFIG_MAPS}/patched?fieldValidation=Strict`, { spec: { replicas: 1 } }, "application/merge-patch+json");
    expect([response.status, ((await response.json()) as { message: string }).message]).toEqual([
      400, 'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "spec"',
    ]);
  });

  it("refuses a fieldValidation it does not know, naming the ones it does", async () => {
    const response = await send("POST", `${CONFIG_MAPS}?fieldValidation=Loose`, { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "loose" } });
    expect([response.status, ((await response.json()) as { message: string }).message]).toEqual([
      422, 'CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Loose": supported values: "Ignore", "Strict", "Warn"',
    ]);
  });
});

describe("a custom resource", () => {
  it("refuses a field its published schema does not declare under Strict", async () => {
    const response = await send("POST", `${SANDBOXES}?fieldValidation=Strict`, aSandbox("strict-box", { colour: "blue" }));
    expect([response.status, ((await response.json()) as { message: string }).message]).toEqual([
      400, 'Sandbox in version "v1beta1" cannot be handled as a Sandbox: strict decoding error: unknown field "spec.colour"',
    ]);
  });

  it("prunes an undeclared field on update, keeping the declared ones", async () => {
    await send("POST", SANDBOXES, aSandbox("pruned-box"));
    const current = (await (await fetch(`${url}${SANDBOXES}/pruned-box`, { headers: { Authorization: `Bearer ${adminToken}` } })).json()) as ReturnType<typeof aSandbox>;
    const response = await send("PUT", `${SANDBOXES}/pruned-box`, { ...current, spec: { ...current.spec, operatingMode: "Suspended", colour: "blue" } });
    const updated = (await response.json()) as { spec: Record<string, unknown> };
    expect([response.status, updated.spec.operatingMode, Object.hasOwn(updated.spec, "colour")]).toEqual([200, "Suspended", false]);
  });
});

describe("the fields each kind declares", () => {
  it("are what the published OpenAPI documents declare (else: npm run generate:openapi)", async () => {
    const [{ default: documents }, { default: known }] = await Promise.all([
      import("./generated/openapi-v3.json", { with: { type: "json" } }),
      import("./generated/known-fields.json", { with: { type: "json" } }),
    ]);
    expect(known).toEqual(deriveKnownFields(documents as Record<string, { document: string }>));
  });
});
