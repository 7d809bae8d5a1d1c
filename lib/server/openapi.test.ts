import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "./openapi.ts";

const document = openApiDocument("test");
type OpenApiInput = Parameters<Validator["validate"]>[0];

function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([key, inner]) => (key === "$ref" && typeof inner === "string" ? [inner] : refsIn(inner)));
  }
  return [];
}

describe("the OpenAPI document", () => {
  it("is valid OpenAPI 3.1, as a maintained validator reads the specification", async () => {
    const result = await new Validator().validate(structuredClone(document) as unknown as OpenApiInput);
    expect(result.errors ?? []).toEqual([]);
  });

  it("would be found invalid with a response that has no description, as OpenAPI 3.1 requires one", async () => {
    const broken = structuredClone(document) as { paths: Record<string, Record<string, { responses: Record<string, { description?: string }> }>> };
    delete broken.paths["/api/health"]!.get!.responses["200"]!.description;
    expect((await new Validator().validate(broken as unknown as OpenApiInput)).valid).toBe(false);
  });

  it("documents every path of the API contract", () => {
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(["/api/health", "/api/v1/sandboxes", "/api/v1/sandboxes/{id}", "/api/v1/sandboxes/{id}/exec", "/api/v1/events"]),
    );
  });

  it("declares what Kubernetes can answer for an endpoint on its resources: a namespace that is not there is a 404", () => {
    const responses = (document.paths["/api/v1/secrets/{namespace}"] as { get: { responses: Record<string, unknown> } }).get.responses;
    expect(Object.keys(responses)).toEqual(expect.arrayContaining(["404", "409", "422", "429", "502", "503"]));
  });

  it("resolves every reference to a component schema", () => {
    const missing = refsIn(document).filter((ref) => !(ref.replace("#/components/schemas/", "") in document.components.schemas));
    expect(missing).toEqual([]);
  });

  it("describes the sandbox spec from the zod schema, with its fields", () => {
    const spec = document.components.schemas.SandboxSpec as { properties: Record<string, unknown>; required: string[] };
    expect([Object.keys(spec.properties), spec.required]).toEqual([expect.arrayContaining(["name", "workspace", "volumes", "driverConfig", "disruptionPolicy"]), ["name"]]);
  });

  it("writes dates as date-time strings", () => {
    const sandbox = document.components.schemas.Sandbox as { properties: { createdAt: { type: string; format: string } } };
    expect(sandbox.properties.createdAt).toMatchObject({ type: "string", format: "date-time" });
  });

  it("documents the settings and volume-action paths with their request schemas", () => {
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(["/api/v1/settings", "/api/v1/settings/history", "/api/v1/volumes/{namespace}/{name}"]));
    const change = document.components.schemas.GatewaySettingsChange as { properties: Record<string, unknown> };
    expect(Object.keys(change.properties)).toEqual(expect.arrayContaining(["workspaceBackend", "workspaceStorageClass", "reset"]));
  });
});
