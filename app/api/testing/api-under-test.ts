import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ENDPOINTS, type EndpointId } from "@/lib/domain/endpoints.ts";
import { declaredStatuses } from "@/lib/server/openapi.ts";
import { handlerOf, type RouteHandler } from "./route-modules.ts";
import type { Person } from "@/lib/domain/person.ts";
import type { SandboxRecord } from "@/lib/domain/sandbox-record.ts";
import { eventually } from "@/lib/sim/testing/eventually.ts";
import { PEER_ADDRESS_HEADER } from "@/lib/platform/peer-address.ts";
import { connectToRealCluster, type ClusterConnection } from "@/lib/kube/cluster-connection.ts";
import { getRuntime, stopRuntime, type Runtime } from "@/lib/server/runtime.ts";

// Berth's HTTP API as its route modules serve it, in this process: the runtime starts as
// `npm start` starts it — on the embedded cluster, or on the real cluster a kubeconfig names —
// and each request is answered by the module the app serves that path from. People are signed
// in by an authenticating proxy (BERTH_AUTH_MODE=proxy): the one sign-in mode in which a test
// states who is asking outright, and the one that works the same against any cluster.

const PUBLIC_URL = "http://berth.test";
const PROXY_ADDRESS = "127.0.0.1";

export interface ApiRequest {
  params?: Record<string, string>;
  query?: Record<string, string>;
  /** JSON, or a string, bytes or a stream sent as they are. */
  body?: unknown;
  /** Over what a browser on Berth's page behind the proxy sends (null removes one). */
  headers?: Record<string, string | null>;
}

export interface ApiAnswer {
  status: number;
  headers: Headers;
  /** The body as JSON, or null when it was not JSON (a stream, text, a redirect). */
  json: unknown;
  text: string;
}

export interface ApiUnderTest {
  runtime: Runtime;
  /** `as` null: a caller with no credentials at all. */
  call(id: EndpointId, as: Person | null, request?: ApiRequest): Promise<ApiAnswer>;
  /** Resolves once the live list has loaded (the reconciler's first pass is done). */
  untilLive(): Promise<void>;
  /** Berth's live records of that name, in any namespace. */
  liveRecordsNamed(name: string): Promise<SandboxRecord[]>;
  /** The embedded cluster as its administrator reaches it with kubectl (the kubeconfig it writes). */
  clusterAdmin(): ClusterConnection;
  /** Where that kubeconfig is, for kubectl itself. */
  clusterAdminKubeconfig(): string;
  stop(): Promise<void>;
}

function urlOf(id: EndpointId, request: ApiRequest): URL {
  const filled = ENDPOINTS[id].path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = request.params?.[name];
    if (value === undefined) throw new Error(`${id} needs the path parameter ${name}`);
    // A lone surrogate cannot be percent-encoded; the handler still gets the value as sent.
    return encodeURIComponent(value.toWellFormed());
  });
  const url = new URL(filled, PUBLIC_URL);
  for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.set(name, value);
  return url;
}

/** What the proxy in front of Berth adds, and what a browser on Berth's own page sends. */
function headersFor(as: Person | null, writes: boolean): Headers {
  const headers = new Headers({ host: new URL(PUBLIC_URL).host, [PEER_ADDRESS_HEADER]: PROXY_ADDRESS });
  if (as) {
    headers.set("x-remote-user", as.username);
    headers.set("x-remote-group", as.groups.join(","));
  }
  if (writes) {
    headers.set("content-type", "application/json");
    headers.set("origin", PUBLIC_URL);
  }
  return headers;
}

async function answerOf(response: Response): Promise<ApiAnswer> {
  if (response.headers.get("content-type")?.startsWith("text/event-stream")) {
    // A stream never ends by itself: that it opened is the answer.
    await response.body?.cancel();
    return { status: response.status, headers: response.headers, json: null, text: "" };
  }
  const text = await response.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // Not JSON: the text is the answer.
  }
  return { status: response.status, headers: response.headers, json, text };
}

/**
 * Starts the runtime in this process with `environment` on top of a clean one: an embedded
 * store in a directory of its own, proxy sign-in from loopback. KUBECONFIG in `environment`
 * points it at a real cluster; without it, the embedded one starts.
 */
export async function startApiUnderTest(environment: Record<string, string> = {}): Promise<ApiUnderTest> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "berth-api-under-test-"));
  const undeclared: string[] = [];
  for (const name of Object.keys(process.env)) {
    // The log's settings are the test run's (vitest.config.ts), not the configuration under test.
    if ((name.startsWith("BERTH_") && !name.startsWith("BERTH_LOG_")) || ["DATABASE_URL", "KUBECONFIG", "KUBERNETES_SERVICE_HOST"].includes(name)) delete process.env[name];
  }
  Object.assign(process.env, {
    BERTH_DATA_DIR: dataDir,
    BERTH_AUTH_MODE: "proxy",
    BERTH_PROXY_TRUSTED_ADDRESSES: PROXY_ADDRESS,
    BERTH_PUBLIC_URL: PUBLIC_URL,
    ...environment,
  });
  const runtime = await getRuntime();
  const handlers = new Map<EndpointId, Promise<RouteHandler>>();
  const clusterAdminKubeconfig = () => {
    if (!runtime.cluster.simulatorUrl) throw new Error("Only the embedded cluster's administrator is known here; on a real cluster, use your own kubeconfig.");
    return path.join(dataDir, "cluster", "kubeconfig");
  };
  return {
    runtime,
    async call(id, as, request = {}) {
      if (!handlers.has(id)) handlers.set(id, handlerOf(id));
      const handler = await handlers.get(id)!;
      const writes = ENDPOINTS[id].method !== "GET";
      const headers = headersFor(as, writes);
      for (const [name, value] of Object.entries(request.headers ?? {})) {
        if (value === null) headers.delete(name);
        else headers.set(name, value);
      }
      const init: RequestInit = { method: ENDPOINTS[id].method, headers };
      if (request.body instanceof ReadableStream) Object.assign(init, { body: request.body, duplex: "half" });
      else if (request.body instanceof Uint8Array) init.body = new Uint8Array(request.body);
      else if (typeof request.body === "string") init.body = request.body;
      else if (request.body !== undefined) init.body = JSON.stringify(request.body);
      const response = await handler(new Request(urlOf(id, request), init), { params: Promise.resolve(request.params ?? {}) });
      const answer = await answerOf(response);
      // What a route answers, the document must declare: a client generated from it knows every answer.
      if (!declaredStatuses(ENDPOINTS[id]).has(answer.status)) undeclared.push(`${id} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
      return answer;
    },
    untilLive: () =>
      eventually(() => {
        if (!runtime.live.ready) throw new Error("the live list has not loaded yet");
      }, { timeoutMs: 60_000 }),
    liveRecordsNamed: async (name) => (await runtime.store.sandboxes.listAllLive()).filter((record) => record.name === name),
    clusterAdminKubeconfig,
    clusterAdmin: () => connectToRealCluster("kubeconfig", clusterAdminKubeconfig()),
    async stop() {
      await stopRuntime();
      rmSync(dataDir, { recursive: true, force: true });
      // Told at the end, once for the whole file: each answer the document does not declare.
      if (undeclared.length > 0) throw new Error(`answers the OpenAPI document does not declare (lib/domain/endpoints.ts):\n${[...new Set(undeclared)].join("\n")}`);
    },
  };
}
