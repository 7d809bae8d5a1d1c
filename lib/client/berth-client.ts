import type { z } from "zod";
import { ENDPOINT_IDS, ENDPOINTS, type Endpoint, type EndpointId } from "../domain/endpoints.ts";
import { ApiProblem } from "./api-problem.ts";

// Berth's API as functions, made from the endpoint table (lib/domain/endpoints.ts): one per row
// that answers JSON, its path, query and body typed from the row's schemas and its answer read
// back through them (dates and all). The browser and the `berth` CLI both call the API through
// it, so neither keeps its own copy of a path or a schema.

type Endpoints = typeof ENDPOINTS;

/** What a row's JSON answers parse to, whichever of its statuses the server gives. */
type JsonAnswerOf<E> = E extends { answers: infer Answers }
  ? { [Status in keyof Answers]: Answers[Status] extends { schema: infer Schema extends z.ZodType } ? z.output<Schema> : never }[keyof Answers]
  : never;

/** The rows a client calls: those with a JSON answer (not the event stream, metrics or sign-in redirects). */
export type ClientEndpointId = { [Id in EndpointId]: [JsonAnswerOf<Endpoints[Id]>] extends [never] ? never : Id }[EndpointId];
export type AnswerOf<Id extends ClientEndpointId> = JsonAnswerOf<Endpoints[Id]>;

type ParamsOf<E> = E extends { params: infer Params extends z.ZodType } ? { params: z.input<Params> } : { params?: undefined };
type QueryOf<E> = E extends { query: infer Query extends z.ZodType } ? { query?: Partial<z.input<Query>> } : { query?: undefined };
type BodyOf<E> = E extends { body: { schema: infer Body extends z.ZodType; required: true } }
  ? { body: z.input<Body> }
  : E extends { body: { schema: infer Body extends z.ZodType } }
    ? { body?: z.input<Body> }
    : { body?: undefined };
/** What one call takes: the path's parameters, the query, the body, and a signal to abort it. */
export type RequestOf<Id extends EndpointId> = ParamsOf<Endpoints[Id]> & QueryOf<Endpoints[Id]> & BodyOf<Endpoints[Id]> & { signal?: AbortSignal };

export interface ClientOptions {
  /** Berth's address (http://host:port); "" for the page's own origin, as the browser calls it. */
  server: string;
  /** A Kubernetes bearer token (the CLI's); the browser's session cookie goes by itself. */
  token?: string;
  /** Sent with every request besides the token (the CLI's User-Agent). */
  headers?: Record<string, string>;
  /** Called before a 401 is thrown: the browser sends the person to sign in again. */
  onUnauthorized?: () => void;
  fetch?: typeof fetch;
}

export type BerthClient = { [Id in ClientEndpointId]: (request: RequestOf<Id>) => Promise<AnswerOf<Id>> } & {
  /** The URL a row's request goes to, for what is not JSON (the event stream). */
  url<Id extends EndpointId>(id: Id, request: Omit<RequestOf<Id>, "body" | "signal">): string;
  /** Any row's request as a Response, refused or failed calls thrown as an ApiProblem. */
  send<Id extends EndpointId>(id: Id, request: RequestOf<Id>, init?: { headers?: Record<string, string> }): Promise<Response>;
};

type AnyRequest = { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown; signal?: AbortSignal };

/** /api/v1/sandboxes/{id} with {id: "…"} → /api/v1/sandboxes/…, each value escaped. */
function pathOf(endpoint: Endpoint, params: Record<string, unknown> = {}): string {
  return endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === null || value === "") throw new TypeError(`${endpoint.method} ${endpoint.path} needs the path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}

function queryOf(query: Record<string, unknown> = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== null) search.set(name, String(value));
  const text = search.toString();
  return text ? `?${text}` : "";
}

export function createBerthClient(options: ClientOptions): BerthClient {
  const server = options.server.replace(/\/+$/, "");
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const url = (id: EndpointId, request: AnyRequest) => `${server}${pathOf(ENDPOINTS[id], request.params)}${queryOf(request.query)}`;

  async function send(id: EndpointId, request: AnyRequest, init: { headers?: Record<string, string> } = {}): Promise<Response> {
    const endpoint: Endpoint = ENDPOINTS[id];
    const headers: Record<string, string> = { ...options.headers, ...init.headers };
    if (options.token) headers.Authorization = `Bearer ${options.token}`;
    if (request.body !== undefined) headers["Content-Type"] = "application/json";
    let response: Response;
    try {
      response = await doFetch(url(id, request), {
        method: endpoint.method,
        headers,
        signal: request.signal,
        redirect: "manual",
        ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      });
    } catch (error) {
      if (request.signal?.aborted) throw error;
      throw ApiProblem.unreachable(server || "the server");
    }
    if (response.status === 401) options.onUnauthorized?.();
    // A status the row answers with (a 503 health answer, say) is an answer, not a problem.
    if (!response.ok && !(response.status in endpoint.answers)) throw await ApiProblem.of(response);
    return response;
  }

  async function call(id: EndpointId, request: AnyRequest): Promise<unknown> {
    const response = await send(id, request);
    const answers: Endpoint["answers"] = ENDPOINTS[id].answers;
    const answer = answers[response.status];
    if (!answer?.schema) {
      throw new ApiProblem(`The server answered HTTP ${response.status}`, `${ENDPOINTS[id].method} ${ENDPOINTS[id].path} does not answer that: is the server a different version of Berth?`, response.status);
    }
    const parsed = answer.schema.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success) {
      throw new ApiProblem("The server's answer was not understood", `${ENDPOINTS[id].method} ${ENDPOINTS[id].path} answered something its schema does not allow (${parsed.error.issues[0]?.message}): is the server a different version of Berth?`, response.status);
    }
    return parsed.data;
  }

  const calls = Object.fromEntries(ENDPOINT_IDS.map((id) => [id, (request: AnyRequest = {}) => call(id, request)]));
  return { ...calls, url: (id: EndpointId, request: AnyRequest) => url(id, request), send } as unknown as BerthClient;
}

/** Every item of a paginated list (`{items, nextCursor}`), following the cursor. */
export async function allPages<Item>(page: (cursor: string | undefined) => Promise<{ items: Item[]; nextCursor: string | null }>): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: string | undefined;
  do {
    const next = await page(cursor);
    items.push(...next.items);
    cursor = next.nextCursor ?? undefined;
  } while (cursor);
  return items;
}
