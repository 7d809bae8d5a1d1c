import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { qualifiedResource, refusalMessage, type AccessAttributes } from "../domain/access.ts";
import type { Actor } from "../domain/audit.ts";
import { roleGranting } from "../domain/berth-roles.ts";
import { RENEWED_TOKEN_HEADER } from "../domain/cli-sign-in.ts";
import { ENDPOINTS, type Endpoint, type EndpointId } from "../domain/endpoints.ts";
import { problemsFromZodError } from "../domain/problems.ts";
import type { SandboxRecord } from "../domain/sandbox-record.ts";
import type { Caller } from "../identity/authenticate.ts";
import { issueBerthToken } from "../identity/cli-tokens.ts";
import { connectionFor, type KubeCredential } from "../kube/acting-as.ts";
import type { ClusterConnection } from "../kube/cluster-connection.ts";
import { logOf } from "../platform/logger.ts";
import { PEER_ADDRESS_HEADER } from "../platform/peer-address.ts";
import { effectiveGatewayDefaults } from "../sandboxes/gateway-settings.ts";
import { RequestRejectedError, SpecRejectedError } from "../sandboxes/lifecycle-errors.ts";
import { SandboxNotFoundError } from "../store/index.ts";
import { BadRequestError, problemFor } from "./api-problems.ts";
import { allowedOrigins } from "./identity.ts";
import { problem, problemResponse, type ProblemDetails } from "./problem-details.ts";
import { crossSite, misdirected, notJson, offLoopback, UNSAFE_METHODS } from "./request-edge.ts";
import { forbiddenText, readBoundedText, UnreadableBodyError } from "./request-body.ts";
import type { RateLimitedError } from "./rate-limits.ts";
import { getRuntime, type Runtime } from "./runtime.ts";
import { sessionCookie } from "./sign-in-flow.ts";

// Every API route is one row of the endpoint table (lib/domain/endpoints.ts) and this wrapper:
// the edge checks, who is asking, whether Kubernetes lets them, the parameters and body parsed
// with the table's schemas, the handler, and an audit entry for every write that was refused or
// failed. A handler sees only what passed, and calls Kubernetes as the caller.

type Parsed<Schema> = Schema extends z.ZodType ? z.infer<Schema> : Record<string, never>;
type ParamsOf<E> = E extends { params: infer Schema } ? Parsed<Schema> : Record<string, never>;
type QueryOf<E> = E extends { query: infer Schema } ? Parsed<Schema> : Record<string, never>;
type BodyOf<E> = E extends { body: { schema: infer Schema } } ? (Schema extends z.ZodType ? z.infer<Schema> : never) : undefined;
type CallerOf<E> = E extends { access: { kind: "public" } } ? Caller | null : Caller;
type SandboxOf<E> = E extends { access: { namespace: "sandbox" } } ? SandboxRecord : null;

export interface EndpointCall<E extends Endpoint> {
  request: Request;
  requestId: string;
  runtime: Runtime;
  caller: CallerOf<E>;
  params: ParamsOf<E>;
  query: QueryOf<E>;
  /** The body as the table's schema parsed it. */
  body: BodyOf<E>;
  /** The body as sent (JSON), for handlers whose own validation reports richer problems. */
  json: unknown;
  /** The sandbox `{id}` names, for endpoints authorized in its namespace. */
  sandbox: SandboxOf<E>;
  /** Who the change is made by, for the audit log. */
  actor: Actor;
  /** Whose authority the caller's Kubernetes calls carry. */
  credential: KubeCredential;
  /** Kubernetes, as the caller (their impersonated identity, or their own token). */
  kube(): ClusterConnection;
}

/**
 * The headers proxy.ts puts on pages, for answers it does not see: API requests bypass it so
 * that their bodies reach the bounded reader unbuffered.
 */
export const API_SECURITY_HEADERS = {
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "same-origin",
  "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
};

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };

export class AccessDeniedError extends Error {
  constructor(
    readonly attributes: AccessAttributes,
    message: string,
  ) {
    super(message);
    this.name = "AccessDeniedError";
  }
}

export class NotSignedInError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NotSignedInError";
  }
}

/** The refusal in the API server's own words, and which of Berth's roles would allow it. */
function accessDenied(username: string, attributes: AccessAttributes): AccessDeniedError {
  const what = "resource" in attributes ? `${qualifiedResource(attributes.resource)}${attributes.resource.name ? ` "${attributes.resource.name}"` : ""} is forbidden: ` : "forbidden: ";
  const role = "resource" in attributes ? roleGranting(attributes.resource) : null;
  const hint = role ? ` You need ${role.name}${role.binding === "namespace" && "resource" in attributes ? ` in ${attributes.resource.namespace}` : ""}.` : "";
  return new AccessDeniedError(attributes, `${what}${refusalMessage(username, attributes)}.${hint}`);
}

function parseWith<Schema extends z.ZodType>(schema: Schema, value: unknown, code: string): z.infer<Schema> {
  const result = schema.safeParse(value);
  if (!result.success) throw new RequestRejectedError(problemsFromZodError(result.error), code);
  return result.data;
}

/** A body that breaks the table's schema: every field named, as the lifecycle's own refusals are. */
function parseBody<Schema extends z.ZodType>(schema: Schema, value: unknown): z.infer<Schema> {
  const result = schema.safeParse(value);
  if (!result.success) throw new SpecRejectedError(problemsFromZodError(result.error));
  return result.data;
}

async function readJson(request: Request, endpoint: Endpoint, maxBytes: number): Promise<unknown> {
  if (!endpoint.body) return undefined;
  const text = await readBoundedText(request, maxBytes);
  if (text.trim() === "") {
    if (endpoint.body.required) throw new BadRequestError("invalid-json", "The request needs a JSON body (Content-Type: application/json).");
    return undefined;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new BadRequestError("invalid-json", "The request body is not JSON: send a JSON object with Content-Type: application/json.");
  }
  const forbidden = forbiddenText(json);
  if (forbidden.length > 0) throw new UnreadableBodyError("forbidden-character", "Some fields hold text Kubernetes cannot store: correct the fields listed in errors.", forbidden);
  return json;
}

/** Query parameters are text that reaches the same places a body does. */
function queryOf(request: Request): Record<string, string> {
  const query = Object.fromEntries(new URL(request.url).searchParams);
  const forbidden = forbiddenText(query);
  if (forbidden.length > 0) throw new UnreadableBodyError("forbidden-character", "Some query parameters hold text Berth cannot accept: correct the parameters listed in errors.", forbidden);
  return query;
}

async function sandboxOf(runtime: Runtime, id: string): Promise<SandboxRecord> {
  const record = runtime.live.get(id) ?? (await runtime.store.sandboxes.getSandbox(id));
  if (!record) throw new SandboxNotFoundError(id);
  return record;
}

/** The authorization question an endpoint asks for this request, or null when it asks none. */
async function questionFor(endpoint: Endpoint, runtime: Runtime, params: Record<string, unknown>, json: unknown, sandbox: SandboxRecord | null): Promise<AccessAttributes | null> {
  const access = endpoint.access;
  if (access.kind === "non-resource") return { nonResource: { path: access.path, verb: access.verb } };
  if (access.kind !== "resource") return null;
  let namespace: string | undefined;
  switch (access.namespace) {
    case "cluster":
      break;
    case "path":
      namespace = String(params.namespace);
      break;
    case "sandbox":
      namespace = sandbox!.namespace;
      break;
    case "spec": {
      const given = (json as { namespace?: unknown } | undefined)?.namespace;
      namespace = typeof given === "string" && given !== "" ? given : (await effectiveGatewayDefaults(runtime)).sandboxNamespace;
      break;
    }
  }
  // The object's own name where it has one, so that RBAC's resourceNames apply (a sandbox's pod is named after it).
  const name = access.namespace === "path" && typeof params.name === "string" ? params.name : access.namespace === "sandbox" ? sandbox!.name : undefined;
  return {
    resource: {
      verb: access.verb,
      group: access.group,
      resource: access.resource,
      ...(access.subresource ? { subresource: access.subresource } : {}),
      ...(namespace ? { namespace } : {}),
      ...(name ? { name } : {}),
    },
  };
}

/**
 * The Host check stops DNS rebinding, which borrows what the browser attaches by itself. A caller
 * with its own bearer token (a probe or Prometheus at the pod's address) and a public read carry
 * nothing to borrow; without sign-in everything is Berth's, so everything is checked.
 */
function hostChecked(endpoint: Endpoint, headers: Headers, mode: Runtime["config"]["auth"]["mode"]): boolean {
  if (mode === "none") return true;
  if (endpoint.access.kind === "public" && !UNSAFE_METHODS.has(endpoint.method)) return false;
  return !/^bearer\s/i.test(headers.get("authorization") ?? "");
}

/** What a write was aimed at: its path's names, else (a create) the namespace and name its body gave. */
function auditTarget(params: Record<string, unknown>, json: unknown): string {
  const fromPath = [params.namespace, params.name, params.id, params.action].filter((part) => typeof part === "string");
  if (fromPath.length > 0) return fromPath.join("/");
  const body = (typeof json === "object" && json !== null ? json : {}) as Record<string, unknown>;
  return [body.namespace, body.name].filter((part) => typeof part === "string" && part !== "").join("/") || "-";
}

/** The route handler for an endpoint of the table. */


export function endpointRoute<Id extends EndpointId>(id: Id, handler: (call: EndpointCall<(typeof ENDPOINTS)[Id]>) => Promise<Response>): (request: Request, context: RouteContext) => Promise<Response> {
  const endpoint: Endpoint = ENDPOINTS[id];
  const writes = UNSAFE_METHODS.has(endpoint.method);
  return async (request, context) => {
    const requestId = randomUUID();
    const started = performance.now();
    let caller: Caller | null = null;
    let runtime: Runtime | null = null;
    let params: Record<string, unknown> = {};
    let json: unknown;
    const answer = (response: Response) => {
      response.headers.set("X-Request-Id", requestId);
      for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) if (!response.headers.has(name)) response.headers.set(name, value);
      const entry = { requestId, method: endpoint.method, route: endpoint.path, endpoint: id, status: response.status, durationMs: Math.round(performance.now() - started), person: caller?.person.username ?? null };
      // Every request answered, one entry each: who asked what, how it was answered, how long it took.
      if (response.status >= 500) logOf("http").error(entry, "request failed");
      else logOf("http").info(entry, "request");
      return response;
    };
    const problemAnswer = (details: ProblemDetails) => answer(problemResponse({ ...details, requestId }));
    try {
      runtime = await getRuntime();
      const auth = runtime.config.auth;
      const edge = (hostChecked(endpoint, request.headers, auth.mode) ? misdirected(request.headers, auth.allowedHosts) : null) ?? (auth.mode === "none" ? offLoopback(request.headers) : null);
      if (edge) return problemAnswer(edge);
      caller = await runtime.identity.authenticator.authenticate({ headers: request.headers, peerAddress: request.headers.get(PEER_ADDRESS_HEADER) });
      if (writes) {
        // A browser attaches a cookie by itself; so would a forged cross-site form.
        const refused = notJson(request.headers) ?? (caller?.ambient || (endpoint.access.kind === "public" && !endpoint.access.setsNoCookie) ? crossSite(request.headers, allowedOrigins(runtime.config)) : null);
        if (refused) return problemAnswer(refused);
      }
      if (!caller && endpoint.access.kind !== "public") throw new NotSignedInError("Sign in first, or send `Authorization: Bearer <Kubernetes token>`.");
      // Before the body is read: a person over their rate costs the server nothing more.
      const rate = endpoint.rate ?? (writes ? "writes" : null);
      // Nobody is signed in yet at a sign-in: the address on the other end of the socket is counted instead.
      const counted = caller?.person.username ?? (rate === "sign-ins" ? `address ${request.headers.get(PEER_ADDRESS_HEADER) || "unknown"}` : null);
      if (rate && counted) runtime.rateLimits.take(counted, rate);
      params = endpoint.params ? parseWith(endpoint.params, await context.params, "invalid-parameter") : {};
      const query = endpoint.query ? parseWith(endpoint.query, queryOf(request), "invalid-query") : {};
      json = await readJson(request, endpoint, runtime.config.limits.maxBodyBytes);
      const sandbox = endpoint.access.kind === "resource" && endpoint.access.namespace === "sandbox" ? await sandboxOf(runtime, String(params.id)) : null;
      const decisions = runtime.identity.decisions;
      const question = await questionFor(endpoint, runtime, params, json, sandbox);
      if (question && caller && !(await decisions.allows(caller.person, question))) {
        // A sandbox the person may not see is, for them, no sandbox at all. Asked only after a
        // refusal, so an allowed request costs one question at most.
        if (sandbox && !(await decisions.allows(caller.person, { resource: { verb: "get", group: "agents.x-k8s.io", resource: "sandboxes", namespace: sandbox.namespace, name: sandbox.name } }))) {
          throw new SandboxNotFoundError(sandbox.id);
        }
        throw accessDenied(caller.person.username, question);
      }
      const body = endpoint.body && json !== undefined && !endpoint.body.validatedByHandler ? parseBody(endpoint.body.schema, json) : undefined;
      const actor: Actor = caller ? { username: caller.person.username, groups: caller.person.groups, requestId } : { username: "anonymous", groups: [], requestId };
      const berthConnection = runtime.cluster.connection;
      const credential: KubeCredential = caller?.credential ?? { kind: "berth" };
      const response = await handler({
        request,
        requestId,
        runtime,
        caller: caller as CallerOf<(typeof ENDPOINTS)[Id]>,
        params: params as ParamsOf<(typeof ENDPOINTS)[Id]>,
        query: query as QueryOf<(typeof ENDPOINTS)[Id]>,
        body: body as BodyOf<(typeof ENDPOINTS)[Id]>,
        json,
        sandbox: sandbox as SandboxOf<(typeof ENDPOINTS)[Id]>,
        actor,
        credential,
        kube: () => connectionFor(berthConnection, credential),
      });
      if (endpoint.audit?.recordedBy === "edge" && response.ok) await record(runtime, endpoint, auditTarget(params, json), actor, "Allowed", "Succeeded", {});
      if (caller?.renewedSession) await handBack(runtime, caller.renewedSession, response);
      return answer(response);
    } catch (error) {
      const details = problemOf(error);
      if (endpoint.audit && runtime) {
        const actor = { username: caller?.person.username ?? "anonymous", groups: caller?.person.groups ?? [], requestId };
        const denied = details.status === 401 || details.status === 403;
        const asked = error instanceof AccessDeniedError ? { asked: error.attributes } : {};
        await record(runtime, endpoint, auditTarget(params, json), actor, denied ? "Denied" : "Allowed", "Failed", { status: details.status, code: details.code, detail: details.detail, ...asked });
      }
      const response = problemAnswer(details);
      if (error instanceof Error && error.name === "RateLimitedError") response.headers.set("Retry-After", String((error as RateLimitedError).retryAfterSeconds));
      if (details.status === 401) response.headers.set("WWW-Authenticate", 'Bearer realm="berth"');
      return response;
    }
  };
}

/** A session whose tokens were refreshed goes back the way it came: a new cookie, or a new Berth token in a header. */
async function handBack(runtime: Runtime, renewed: NonNullable<Caller["renewedSession"]>, response: Response): Promise<void> {
  const auth = runtime.config.auth;
  if (renewed.carriedIn === "cookie") {
    const sealed = await runtime.identity.sealer.sealSession(renewed.session, auth.sessionMaxAgeSeconds);
    response.headers.append("Set-Cookie", sessionCookie(sealed, auth.sessionMaxAgeSeconds, auth.publicUrl));
  } else {
    response.headers.set(RENEWED_TOKEN_HEADER, (await issueBerthToken(runtime.identity.sealer, renewed.session, auth.sessionMaxAgeSeconds)).token);
  }
}

function problemOf(error: unknown): ProblemDetails {
  if (error instanceof Error && error.name === "NotSignedInError") return problem(401, "unauthenticated", "Not signed in", error.message);
  if (error instanceof Error && error.name === "AuthenticationError") return problem(401, "unauthenticated", "Who you are could not be proved", error.message);
  if (error instanceof Error && error.name === "AccessDeniedError") return problem(403, "forbidden", "Kubernetes does not allow this", error.message);
  return problemFor(error);
}

/** One audit entry for a write: a refused or failed one always, a success when the lifecycle does not record it itself. */
async function record(runtime: Runtime, endpoint: Endpoint, targetId: string, actor: Actor, decision: "Allowed" | "Denied", outcome: "Succeeded" | "Failed", details: Record<string, unknown>): Promise<void> {
  const audit = endpoint.audit!;
  await runtime.store.audit
    .recordChange({ actor, action: audit.action, targetKind: audit.targetKind, targetId, decision, outcome, details: { method: endpoint.method, path: endpoint.path, ...details } })
    .catch((failure: unknown) => logOf("audit").error({ err: failure, action: audit.action }, "could not write the audit entry"));
}
