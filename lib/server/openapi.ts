import { z } from "zod";
import { auditEntrySchema } from "../domain/audit.ts";
import { checkpointSchema } from "../domain/checkpoint.ts";
import { ENDPOINTS, type Access, type Endpoint } from "../domain/endpoints.ts";
import { execRequestSchema, execResultSchema } from "../domain/exec-request.ts";
import { gatewaySettingsChangeSchema, gatewaySettingsSchema } from "../domain/gateway-settings.ts";
import { BERTH_API_GROUP } from "../domain/access.ts";
import { healthSchema } from "../domain/health.ts";
import { maintenanceOptionsSchema, maintenanceRunSchema } from "../domain/maintenance.ts";
import { maintenancePreviewSchema } from "../domain/maintenance-preview.ts";
import { nodeViewSchema } from "../domain/node-view.ts";
import { problemDetailsSchema } from "../domain/problem-details.ts";
import { sandboxRecordSchema } from "../domain/sandbox-record.ts";
import { sandboxSpecSchema } from "../domain/sandbox-spec.ts";
import { simulatorActionResultSchema, simulatorDrainOptionsSchema, simulatorStateSchema } from "../domain/simulator.ts";
import { storageClassViewSchema } from "../domain/storage-class.ts";
import { timelineEventSchema } from "../domain/timeline.ts";
import { volumeSchema } from "../domain/volume.ts";
import { volumeExpansionSchema } from "../domain/volume-actions.ts";
import { whoAmISchema } from "../domain/who-am-i.ts";

// GET /api/v1/openapi.json, generated from the endpoint table (lib/domain/endpoints.ts) and the
// very zod schemas the API validates with, so the document cannot drift from the code: every
// path, parameter, body and answer, and who may call each endpoint (x-berth-access, in
// Kubernetes' terms). Cross-field rules (a refinement) do not show in JSON Schema; the
// problem+json answers name them.

type JsonSchema = Record<string, unknown>;

type Component = { schema: z.ZodType; io: "input" | "output" };
const input = (schema: z.ZodType): Component => ({ schema, io: "input" });
const output = (schema: z.ZodType): Component => ({ schema, io: "output" });

/** Schemas shown once under components and referred to by name wherever they appear whole. */
const COMPONENTS: Record<string, Component> = {
  SandboxSpec: input(sandboxSpecSchema),
  Sandbox: output(sandboxRecordSchema),
  ExecRequest: input(execRequestSchema),
  ExecResult: output(execResultSchema),
  TimelineEvent: output(timelineEventSchema),
  Volume: output(volumeSchema),
  StorageClass: output(storageClassViewSchema),
  Checkpoint: output(checkpointSchema),
  Node: output(nodeViewSchema),
  MaintenancePreview: output(maintenancePreviewSchema),
  MaintenanceOptions: input(maintenanceOptionsSchema),
  MaintenanceRun: output(maintenanceRunSchema),
  AuditEntry: output(auditEntrySchema),
  GatewaySettings: output(gatewaySettingsSchema),
  GatewaySettingsChange: input(gatewaySettingsChangeSchema),
  VolumeExpansion: input(volumeExpansionSchema),
  Health: output(healthSchema),
  Problem: output(problemDetailsSchema),
  SimulatorState: output(simulatorStateSchema),
  SimulatorDrainOptions: input(simulatorDrainOptionsSchema),
  SimulatorActionResult: output(simulatorActionResultSchema),
  WhoAmI: output(whoAmISchema),
};

function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const converted = z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
    // Dates travel as RFC 3339 strings.
    override: (context) => {
      if ((context.zodSchema as { _zod?: { def?: { type?: string } } })._zod?.def?.type === "date") {
        context.jsonSchema.type = "string";
        context.jsonSchema.format = "date-time";
      }
    },
  }) as JsonSchema;
  delete converted.$schema;
  return converted;
}

const componentName = new Map<z.ZodType, string>(Object.entries(COMPONENTS).map(([name, component]) => [component.schema, name]));

/** A reference where the schema is a component, else the schema itself. */
function schemaOf(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const name = componentName.get(schema);
  return name ? { $ref: `#/components/schemas/${name}` } : jsonSchema(schema, io);
}

const problems = { description: "A problem, as application/problem+json (RFC 9457)", content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } } };

/** Who may call it, as the reader of the document would ask `kubectl auth can-i`. */
function accessOf(access: Access): Record<string, unknown> {
  switch (access.kind) {
    case "public":
      return { public: true, why: access.why };
    case "signed-in":
      return { signedIn: true, shows: access.shows };
    case "non-resource":
      return { nonResourceURL: access.path, verb: access.verb };
    case "resource":
      return { verb: access.verb, group: access.group, resource: access.subresource ? `${access.resource}/${access.subresource}` : access.resource, namespace: access.namespace };
  }
}

function parameters(endpoint: Endpoint): JsonSchema[] {
  const list: JsonSchema[] = [];
  for (const [where, schema] of [["path", endpoint.params], ["query", endpoint.query]] as const) {
    if (!schema) continue;
    const shape = jsonSchema(schema, "input") as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, property] of Object.entries(shape.properties ?? {})) {
      list.push({ name, in: where, required: where === "path" || (shape.required ?? []).includes(name), schema: property });
    }
  }
  return list;
}

/**
 * What Kubernetes can answer a call Berth makes on a person's behalf, passed on as a problem
 * (api-problems.ts): the namespace or object is not there, a conflict, an object it finds
 * invalid, its throttling, and the API server failing (502) or out of reach (503).
 */
const KUBERNETES_ANSWERS = [404, 409, 422, 429, 502, 503];

/**
 * Every status the document declares for the endpoint: its answers, its problems, the refusals
 * of its access, what the edge (endpoint-route.ts) answers before the handler runs — 400 for a
 * path or query parameter that does not parse, 400, 413 and 415 for a body that does not, 429
 * past the rate the endpoint takes from — and, for an endpoint on Kubernetes' own resources,
 * what Kubernetes can answer.
 */
export function declaredStatuses(endpoint: Endpoint): Set<number> {
  const { access } = endpoint;
  const refusals = access.kind === "public" ? [] : [401, ...(access.kind === "signed-in" ? [] : [403])];
  const edge = [...(endpoint.params || endpoint.query ? [400] : []), ...(endpoint.body ? [400, 413, 415] : []), ...(endpoint.rate ? [429] : [])];
  const kubernetes = access.kind === "resource" && access.group !== BERTH_API_GROUP ? KUBERNETES_ANSWERS : [];
  return new Set([...Object.keys(endpoint.answers).map(Number), ...endpoint.problems, ...refusals, ...edge, ...kubernetes]);
}

function operation(id: string, endpoint: Endpoint): JsonSchema {
  const responses: Record<string, unknown> = {};
  for (const [status, answer] of Object.entries(endpoint.answers)) {
    responses[status] = {
      description: answer.description,
      ...(answer.schema ? { content: { "application/json": { schema: schemaOf(answer.schema, "output") } } } : answer.contentType ? { content: { [answer.contentType]: { schema: { type: "string" } } } } : {}),
    };
  }
  for (const status of [...declaredStatuses(endpoint)].filter((one) => !(String(one) in endpoint.answers)).sort()) responses[String(status)] = problems;
  return {
    operationId: id,
    summary: endpoint.summary,
    "x-berth-access": accessOf(endpoint.access),
    ...(endpoint.access.kind === "public" ? { security: [] } : {}),
    ...(parameters(endpoint).length > 0 ? { parameters: parameters(endpoint) } : {}),
    ...(endpoint.body ? { requestBody: { required: endpoint.body.required, content: { "application/json": { schema: schemaOf(endpoint.body.schema, "input") } } } } : {}),
    responses,
  };
}

export function openApiDocument(version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [id, endpoint] of Object.entries(ENDPOINTS) as [string, Endpoint][]) {
    (paths[endpoint.path] ??= {})[endpoint.method.toLowerCase()] = operation(id, endpoint);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Berth API",
      version,
      description:
        "Sandboxes for AI agents on Kubernetes: create, observe and operate them. Berth proves who is asking; Kubernetes RBAC decides what they may do: x-berth-access names the question Berth asks it for each operation.",
    },
    security: [{ kubernetesToken: [] }, { session: [] }],
    paths,
    components: {
      securitySchemes: {
        kubernetesToken: { type: "http", scheme: "bearer", description: "A Kubernetes token (a service account's, say), checked with TokenReview and used as the caller's own" },
        session: { type: "apiKey", in: "cookie", name: "berth_session", description: "The sealed session cookie of a browser sign-in" },
      },
      schemas: Object.fromEntries(Object.entries(COMPONENTS).map(([name, component]) => [name, jsonSchema(component.schema, component.io)])),
    },
  };
}
