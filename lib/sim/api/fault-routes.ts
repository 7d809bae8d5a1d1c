import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import type { Faults } from "../faults.ts";
import { StatusError } from "../status-error.ts";
import { parseJson, readBody, sendJson } from "./http-io.ts";

// The fault API of the simulated cluster, under /sim/v1: what `npm run sim -- <command>`,
// tests and the console's simulator page use to rehearse disruptions.
//
//   POST /sim/v1/nodes/{node}/cordon | uncordon | lose | restore
//   POST /sim/v1/nodes/{node}/drain            {deleteEmptyDirData?, force?, timeoutSeconds?, gracePeriodSeconds?}
//                                              answers the DrainReport once the node is empty or the drain gave up
//   POST /sim/v1/namespaces/{ns}/pods/{pod}/kubelet-evict   {resource?}
//   POST /sim/v1/namespaces/{ns}/pods/{pod}/preempt
//   POST /sim/v1/namespaces/{ns}/pods/{pod}/delete          {force?}
//   POST /sim/v1/storageclasses/{class}/fail-provisioning   {message: string | null}
//   POST /sim/v1/api-faults {verb?, resource?, namespace?, name?, code?, message?, latencyMs?, retryAfterSeconds?, count?};  DELETE /sim/v1/api-faults
//   POST /sim/v1/watches/drop;  POST /sim/v1/compact;  GET /sim/v1/state

const drainSchema = z.strictObject({
  deleteEmptyDirData: z.boolean().optional(),
  force: z.boolean().optional(),
  timeoutSeconds: z.number().int().positive().optional(),
  gracePeriodSeconds: z.number().int().nonnegative().optional(),
});
const apiFaultSchema = z.strictObject({
  verb: z.string().optional(),
  resource: z.string().optional(),
  namespace: z.string().optional(),
  name: z.string().optional(),
  code: z.number().int().min(400).max(599).optional(),
  message: z.string().optional(),
  latencyMs: z.number().int().nonnegative().max(60_000).optional(),
  retryAfterSeconds: z.number().int().nonnegative().max(60).optional(),
  count: z.number().int().positive().optional(),
});
const provisioningSchema = z.strictObject({ message: z.string().nullable() });
const evictSchema = z.strictObject({ resource: z.enum(["memory", "ephemeral-storage", "pid"]).optional() });
const deleteSchema = z.strictObject({ force: z.boolean().optional() });

async function body<T>(request: IncomingMessage, schema: z.ZodType<T>): Promise<T> {
  const text = await readBody(request);
  const result = schema.safeParse(text.trim() ? parseJson(text) : {});
  if (!result.success) {
    throw StatusError.badRequest(result.error.issues.map((issue) => `${issue.path.join(".") || "body"}: ${issue.message}`).join("; "));
  }
  return result.data;
}

const OK = { ok: true };

/** Carries out one fault operation and returns what to answer, or throws a Status. */
async function dispatch(faults: Faults, state: () => unknown, method: string, parts: string[], request: IncomingMessage): Promise<unknown> {
  const [first, second, third, fourth, fifth] = parts;
  if (method === "GET" && parts.length === 1 && first === "state") return state();
  if (method === "POST" && first === "nodes" && parts.length === 3) {
    const node = second!;
    switch (third) {
      case "cordon":
        return faults.setUnschedulable(node, true);
      case "uncordon":
        return faults.setUnschedulable(node, false);
      case "drain":
        return faults.drain(node, await body(request, drainSchema));
      case "lose":
        faults.loseNode(node);
        return OK;
      case "restore":
        faults.restoreNode(node);
        return OK;
    }
  }
  if (method === "POST" && first === "namespaces" && third === "pods" && parts.length === 5) {
    const [namespace, pod] = [second!, fourth!];
    switch (fifth) {
      case "kubelet-evict":
        return faults.kubeletEvict(namespace, pod, (await body(request, evictSchema)).resource);
      case "preempt":
        return faults.preempt(namespace, pod);
      case "delete":
        return faults.deletePod(namespace, pod, (await body(request, deleteSchema)).force ?? false);
    }
  }
  if (method === "POST" && first === "storageclasses" && third === "fail-provisioning" && parts.length === 3) {
    faults.failProvisioning(second!, (await body(request, provisioningSchema)).message);
    return OK;
  }
  if (first === "api-faults" && parts.length === 1 && method === "POST") {
    faults.injectApiFault(await body(request, apiFaultSchema));
    return OK;
  }
  if (first === "api-faults" && parts.length === 1 && method === "DELETE") {
    faults.clearApiFaults();
    return OK;
  }
  if (method === "POST" && parts.join("/") === "watches/drop") return { dropped: faults.dropWatches() };
  if (method === "POST" && parts.length === 1 && first === "compact") {
    faults.compact();
    return OK;
  }
  throw StatusError.of(404, "NotFound", `no fault operation at ${method} /sim/v1/${parts.join("/")}`);
}

export function faultRoutes(faults: Faults, state: () => unknown) {
  return async (request: IncomingMessage, response: ServerResponse, url: URL): Promise<boolean> => {
    if (!url.pathname.startsWith("/sim/v1/")) return false;
    const parts = url.pathname.slice("/sim/v1/".length).split("/").filter(Boolean).map(decodeURIComponent);
    sendJson(response, 200, await dispatch(faults, state, request.method ?? "GET", parts, request));
    return true;
  };
}
