import { z } from "zod";
import { auditEntrySchema } from "../domain/audit.ts";
import { checkpointSchema } from "../domain/checkpoint.ts";
import { execRequestSchema } from "../domain/exec-request.ts";
import { maintenanceOptionsSchema, maintenanceRunSchema } from "../domain/maintenance.ts";
import { healthSchema } from "../domain/health.ts";
import { sandboxRecordSchema } from "../domain/sandbox-record.ts";
import { sandboxSpecSchema } from "../domain/sandbox-spec.ts";
import { timelineEventSchema } from "../domain/timeline.ts";
import { storageClassViewSchema } from "../domain/storage-class.ts";
import { volumeSchema } from "../domain/volume.ts";
import { gatewaySettingsChangeSchema, gatewaySettingsSchema } from "../domain/gateway-settings.ts";
import { volumeExpansionSchema } from "../domain/volume-actions.ts";
import { maintenancePreviewSchema } from "../domain/maintenance-preview.ts";
import { nodeViewSchema } from "../domain/node-view.ts";
import { problemDetailsSchema } from "../domain/problem-details.ts";
import { simulatorActionResultSchema, simulatorDrainOptionsSchema, simulatorStateSchema, SIMULATOR_NODE_ACTIONS, SIMULATOR_POD_ACTIONS } from "../domain/simulator.ts";

// GET /api/v1/openapi.json, generated from the very zod schemas the API validates with, so the
// document cannot drift from the code. Cross-field rules (a refinement) do not show in JSON
// Schema; the problem+json answers name them.

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  return z.toJSONSchema(schema, {
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
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const problems = { description: "A problem, as application/problem+json (RFC 9457)", content: { "application/problem+json": { schema: ref("Problem") } } };
const idParameter = { name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } };
const pageParameters = [
  { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 500, default: 50 } },
  { name: "cursor", in: "query", schema: { type: "string" } },
];
const page = (item: string) => ({ type: "object", properties: { items: { type: "array", items: ref(item) }, nextCursor: { type: ["string", "null"] } }, required: ["items", "nextCursor"] });

export function openApiDocument(version: string) {
  return {
    openapi: "3.1.0",
    info: { title: "Berth API", version, description: "Sandboxes for AI agents on Kubernetes: create, observe and operate them." },
    paths: {
      "/api/health": { get: { summary: "What this server is connected to", responses: { 200: { description: "Serving", ...json(ref("Health")) }, 503: { description: "The store does not answer", ...json(ref("Health")) } } } },
      "/api/v1/sandboxes": {
        get: {
          summary: "Live sandboxes, newest first",
          parameters: [
            { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 500, default: 50 } },
            { name: "cursor", in: "query", schema: { type: "string" } },
          ],
          responses: { 200: { description: "A page", ...json(page("Sandbox")) }, 400: problems },
        },
        post: {
          summary: "Create a sandbox",
          parameters: [{ name: "dryRun", in: "query", schema: { type: "boolean" }, description: "Render and validate against the cluster; create nothing" }],
          requestBody: { required: true, ...json(ref("SandboxSpec")) },
          responses: { 201: { description: "Created", ...json(ref("Sandbox")) }, 200: { description: "Dry run: the manifests" }, 400: problems, 409: problems, 503: problems },
        },
      },
      "/api/v1/sandboxes/{id}": {
        parameters: [idParameter],
        get: { summary: "One sandbox with its derived status", responses: { 200: json(ref("Sandbox")), 404: problems } },
        delete: { summary: "Delete a sandbox; claims are swept or kept by their ownership", responses: { 200: { description: "Deleted" }, 404: problems } },
      },
      "/api/v1/sandboxes/{id}/stop": { parameters: [idParameter], post: { summary: "Stop (suspend), keeping claims", responses: { 202: json(ref("Sandbox")), 404: problems } } },
      "/api/v1/sandboxes/{id}/start": { parameters: [idParameter], post: { summary: "Start (resume)", responses: { 202: json(ref("Sandbox")), 404: problems } } },
      "/api/v1/sandboxes/{id}/recover": {
        parameters: [idParameter],
        post: { summary: "Replace a failed or crash-looping pod (agent-sandbox does not replace a Failed pod)", responses: { 202: json(ref("Sandbox")), 404: problems, 409: problems } },
      },
      "/api/v1/sandboxes/{id}/exec": {
        parameters: [idParameter],
        post: {
          summary: "Run a command in the agent container",
          requestBody: { required: true, ...json(ref("ExecRequest")) },
          responses: {
            200: json({ type: "object", properties: { exitCode: { type: "integer" }, stdout: { type: "string" }, stderr: { type: "string" } }, required: ["exitCode", "stdout", "stderr"] }),
            400: problems,
            404: problems,
            409: problems,
            504: problems,
          },
        },
      },
      "/api/v1/sandboxes/{id}/timeline": {
        parameters: [idParameter, { name: "after", in: "query", schema: { type: "string" } }],
        get: {
          summary: "The stored timeline, oldest first, 1,000 events a page",
          parameters: [{ name: "cursor", in: "query", schema: { type: "string" } }, { name: "after", in: "query", description: "The same as cursor: an event id", schema: { type: "string" } }],
          responses: { 200: json(page("TimelineEvent")), 400: problems, 404: problems },
        },
      },
      "/api/v1/sandboxes/{id}/checkpoint": {
        parameters: [idParameter],
        post: {
          summary: "Run a checkpoint now: the hook within its grace period, a flush, the state marker. Answers how it went (Succeeded, Failed, TimedOut)",
          responses: { 200: json(ref("Checkpoint")), 404: problems, 409: problems },
        },
      },
      "/api/v1/sandboxes/{id}/checkpoints": {
        parameters: [idParameter],
        get: { summary: "The sandbox's checkpoints, newest first", responses: { 200: json({ type: "object", properties: { items: { type: "array", items: ref("Checkpoint") } } }), 404: problems } },
      },
      "/api/v1/nodes": {
        get: {
          summary: "The cluster's nodes by name, each with the sandboxes on it",
          parameters: [
            { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 500, default: 50 } },
            { name: "cursor", in: "query", schema: { type: "string" } },
          ],
          responses: { 200: { description: "A page", ...json(page("Node")) }, 400: problems, 503: problems },
        },
      },
      "/api/v1/nodes/{name}/maintenance/preview": {
        parameters: [{ name: "name", in: "path", required: true, schema: { type: "string" } }],
        get: { summary: "What draining the node would do to each pod on it", responses: { 200: json(ref("MaintenancePreview")), 404: problems, 503: problems } },
      },
      "/api/v1/nodes/{name}/maintenance": {
        parameters: [{ name: "name", in: "path", required: true, schema: { type: "string" } }],
        post: {
          summary: "Start planned maintenance of the node (cordon, checkpoint, relax budgets, evict, watch replacements, restore budgets); answers at once",
          requestBody: { required: true, ...json(ref("MaintenanceOptions")) },
          responses: { 202: json(ref("MaintenanceRun")), 400: problems, 404: problems, 409: problems, 503: problems },
        },
        get: { summary: "The node's maintenance runs, newest first", responses: { 200: json({ type: "object", properties: { items: { type: "array", items: ref("MaintenanceRun") } } }) } },
      },
      "/api/v1/maintenance/{id}": {
        parameters: [idParameter],
        get: { summary: "One maintenance run with its progress per sandbox and pod", responses: { 200: json(ref("MaintenanceRun")), 404: problems } },
      },
      "/api/v1/maintenance/{id}/cancel": {
        parameters: [idParameter],
        post: { summary: "Stop the run after its current step; budgets are restored, the node stays cordoned", responses: { 202: { description: "Cancelling" }, 409: problems, 503: problems } },
      },
      "/metrics": {
        get: { summary: "Prometheus text format: sandboxes by phase, disruptions by reason, recovery durations, checkpoints by result and duration", responses: { 200: { description: "text/plain; version=0.0.4", content: { "text/plain": { schema: { type: "string" } } } } } },
      },
      "/api/v1/volumes": {
        get: {
          summary: "Every claim Berth knows (workspaces and extra volumes): owner, ownership, binding, node pinning, attachment",
          parameters: [
            { name: "namespace", in: "query", schema: { type: "string" } },
            { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 500, default: 50 } },
            { name: "cursor", in: "query", schema: { type: "string" } },
          ],
          responses: { 200: { description: "A page", ...json(page("Volume")) }, 400: problems, 503: problems },
        },
      },
      "/api/v1/storage-classes": {
        get: {
          summary: "The cluster's storage classes: the default marked, node-pinned or portable (and why), expansion and snapshot support",
          responses: { 200: { description: "Every class, the default first", ...json({ type: "object", properties: { items: { type: "array", items: ref("StorageClass") } }, required: ["items"] }) }, 502: problems },
        },
      },
      // Settings and volume actions (the admin pages).
      "/api/v1/settings": {
        get: { summary: "The gateway defaults in effect: configuration (environment > file > default) with the changes made through Berth on top, each with its source", responses: { 200: json(ref("GatewaySettings")) } },
        put: {
          summary: "Change gateway defaults (a change wins over the configuration; `reset` hands keys back to it); new sandboxes get them at once; audited",
          requestBody: { required: true, ...json(ref("GatewaySettingsChange")) },
          responses: { 200: json(ref("GatewaySettings")), 400: problems },
        },
      },
      "/api/v1/settings/history": {
        get: { summary: "Changes to the gateway defaults, newest first", parameters: pageParameters, responses: { 200: { description: "A page", ...json(page("AuditEntry")) }, 400: problems } },
      },
      "/api/v1/volumes/{namespace}/{name}": {
        parameters: [{ name: "namespace", in: "path", required: true, schema: { type: "string" } }, { name: "name", in: "path", required: true, schema: { type: "string" } }],
        delete: { summary: "Delete a claim Berth knows that no pod or live sandbox uses (by uid: a recreated claim is never deleted); audited", responses: { 200: { description: "Deleted" }, 404: problems, 409: problems, 503: problems } },
        patch: {
          summary: "Grow a bound claim whose StorageClass allows volume expansion; status.capacity follows once resized; audited",
          requestBody: { required: true, ...json(ref("VolumeExpansion")) },
          responses: { 202: { description: "Requested", ...json({ type: "object", properties: { from: { type: ["string", "null"] }, to: { type: "string" } } }) }, 400: problems, 404: problems, 409: problems, 503: problems },
        },
      },
      "/api/v1/events": {
        get: {
          summary: "Server-Sent Events of every timeline event; Last-Event-ID resumes without loss",
          parameters: [{ name: "sandbox", in: "query", schema: { type: "string", format: "uuid" } }, { name: "Last-Event-ID", in: "header", schema: { type: "string" } }],
          responses: { 200: { description: "An event stream; each event's data is a TimelineEvent", content: { "text/event-stream": { schema: { type: "string" } } } }, 400: problems },
        },
      },
      // The Simulator (embedded cluster only; 404 elsewhere).
      "/api/v1/simulator": { get: { summary: "The embedded cluster's nodes (kubelet up, Ready, cordoned) with the sandbox pods on each", responses: { 200: json(ref("SimulatorState")), 404: problems, 503: problems } } },
      "/api/v1/simulator/nodes/{name}/{action}": {
        parameters: [{ name: "name", in: "path", required: true, schema: { type: "string" } }, { name: "action", in: "path", required: true, schema: { type: "string", enum: [...SIMULATOR_NODE_ACTIONS] } }],
        post: { summary: "Cordon, uncordon, drain (answers with kubectl's report), lose or restore a simulated node", requestBody: { required: false, ...json(ref("SimulatorDrainOptions")) }, responses: { 200: json(ref("SimulatorActionResult")), 400: problems, 404: problems, 502: problems } },
      },
      "/api/v1/simulator/pods/{namespace}/{name}/{action}": {
        parameters: [
          { name: "namespace", in: "path", required: true, schema: { type: "string" } },
          { name: "name", in: "path", required: true, schema: { type: "string" } },
          { name: "action", in: "path", required: true, schema: { type: "string", enum: [...SIMULATOR_POD_ACTIONS] } },
        ],
        post: { summary: "Delete a simulated pod, have its kubelet evict it, or have the scheduler preempt it", responses: { 200: json(ref("SimulatorActionResult")), 400: problems, 404: problems, 502: problems } },
      },
    },
    components: {
      schemas: {
        SandboxSpec: jsonSchema(sandboxSpecSchema, "input"),
        Sandbox: jsonSchema(sandboxRecordSchema, "output"),
        ExecRequest: jsonSchema(execRequestSchema, "input"),
        TimelineEvent: jsonSchema(timelineEventSchema, "output"),
        Volume: jsonSchema(volumeSchema, "output"),
        StorageClass: jsonSchema(storageClassViewSchema, "output"),
        Checkpoint: jsonSchema(checkpointSchema, "output"),
        Node: jsonSchema(nodeViewSchema, "output"),
        MaintenancePreview: jsonSchema(maintenancePreviewSchema, "output"),
        MaintenanceOptions: jsonSchema(maintenanceOptionsSchema, "input"),
        MaintenanceRun: jsonSchema(maintenanceRunSchema, "output"),
        AuditEntry: jsonSchema(auditEntrySchema, "output"),
        GatewaySettings: jsonSchema(gatewaySettingsSchema, "output"),
        GatewaySettingsChange: jsonSchema(gatewaySettingsChangeSchema, "input"),
        VolumeExpansion: jsonSchema(volumeExpansionSchema, "input"),
        Health: jsonSchema(healthSchema, "output"),
        Problem: jsonSchema(problemDetailsSchema, "output"),
        SimulatorState: jsonSchema(simulatorStateSchema, "output"),
        SimulatorDrainOptions: jsonSchema(simulatorDrainOptionsSchema, "input"),
        SimulatorActionResult: jsonSchema(simulatorActionResultSchema, "output"),
      },
    },
  };
}
