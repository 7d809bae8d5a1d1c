import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBareApiServer } from "../testing/bare-api-server.ts";
import type { ApiServer } from "./api-server.ts";

// extensions.agents.x-k8s.io in both versions, converted as agent-sandbox's webhook does.

let server: ApiServer;
let url: string;
let adminToken: string;

beforeAll(async () => {
  ({ server, url, adminToken } = await startBareApiServer());
});
afterAll(() => server.close());

const at = (version: string, plural: string, name = "") => `/apis/extensions.agents.x-k8s.io/${version}/namespaces/default/${plural}${name ? `/${name}` : ""}`;

async function call(method: string, path: string, body?: unknown, contentType = "application/json") {
  const response = await fetch(`${url}${path}`, { method, headers: { Authorization: `Bearer ${adminToken}`, "Content-Type": contentType }, ...(body ? { body: JSON.stringify(body) } : {}) });
  return { status: response.status, body: (await response.json()) as { spec: Record<string, unknown>; status?: Record<string, unknown>; metadata: { annotations?: Record<string, string> } } };
}

const objectOf = (version: string, kind: string, name: string, spec: Record<string, unknown>, annotations?: Record<string, string>) => ({
  apiVersion: `extensions.agents.x-k8s.io/${version}`,
  kind,
  metadata: { name, ...(annotations ? { annotations } : {}) },
  spec,
});

describe("a SandboxClaim", () => {
  it("written in v1alpha1 with a template and the default pool policy names the template's shadow pool in v1beta1", async () => {
    await call("POST", at("v1alpha1", "sandboxclaims"), objectOf("v1alpha1", "SandboxClaim", "old-style", { sandboxTemplateRef: { name: "python" }, warmpool: "default" }));
    expect((await call("GET", at("v1beta1", "sandboxclaims", "old-style"))).body.spec.warmPoolRef).toEqual({ name: "shadow-pool-python" });
  });

  it("reads back in v1alpha1 as it was written, without the webhook's state annotation", async () => {
    await call("POST", at("v1alpha1", "sandboxclaims"), objectOf("v1alpha1", "SandboxClaim", "round-trip", { sandboxTemplateRef: { name: "python" }, warmpool: "none" }));
    const read = (await call("GET", at("v1alpha1", "sandboxclaims", "round-trip"))).body;
    expect([read.spec, read.metadata.annotations]).toEqual([{ sandboxTemplateRef: { name: "python" }, warmpool: "none" }, undefined]);
  });

  it("written in v1beta1 with a pool reads in v1alpha1 as that pool and its template", async () => {
    await call("POST", at("v1beta1", "sandboxclaims"), objectOf("v1beta1", "SandboxClaim", "new-style", { warmPoolRef: { name: "fast" } }));
    expect((await call("GET", at("v1alpha1", "sandboxclaims", "new-style"))).body.spec).toEqual({ sandboxTemplateRef: { name: "fast" }, warmpool: "fast" });
  });
});

describe("a SandboxTemplate", () => {
  it("shows v1beta1's volumeClaimTemplatesPolicy to v1alpha1 as an annotation, and takes it back from one", async () => {
    const podTemplate = { spec: { containers: [{ name: "agent", image: "busybox" }] } };
    await call("POST", at("v1beta1", "sandboxtemplates"), objectOf("v1beta1", "SandboxTemplate", "allowed", { podTemplate, volumeClaimTemplatesPolicy: "Allowed" }));
    const asAlpha = (await call("GET", at("v1alpha1", "sandboxtemplates", "allowed"))).body;
    await call("PUT", at("v1alpha1", "sandboxtemplates", "allowed"), { ...asAlpha, metadata: { ...asAlpha.metadata, annotations: { "api.agents.x-k8s.io/v1beta1-volume-claim-templates-policy": "Overrides" } } });
    const asBeta = (await call("GET", at("v1beta1", "sandboxtemplates", "allowed"))).body;
    expect([asAlpha.metadata.annotations, asBeta.spec.volumeClaimTemplatesPolicy]).toEqual([{ "api.agents.x-k8s.io/v1beta1-volume-claim-templates-policy": "Allowed" }, "Overrides"]);
  });
});

describe("a SandboxWarmPool", () => {
  it("is scaled through its scale subresource, as kubectl scale does", async () => {
    await call("POST", at("v1beta1", "sandboxwarmpools"), objectOf("v1beta1", "SandboxWarmPool", "scaled", { replicas: 1, sandboxTemplateRef: { name: "python" } }));
    const scaled = await call("PATCH", at("v1beta1", "sandboxwarmpools", "scaled/scale"), { spec: { replicas: 4 } }, "application/merge-patch+json");
    expect([scaled.status, (await call("GET", at("v1beta1", "sandboxwarmpools", "scaled"))).body.spec.replicas]).toEqual([200, 4]);
  });
});
