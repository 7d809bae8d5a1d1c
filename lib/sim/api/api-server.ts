import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createTlsServer } from "node:https";
import { admitAtOnce } from "../../platform/request-admission.ts";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import type { AccessControl } from "../access/access-control.ts";
import { attributesOf, forbidden, verbOf } from "../access/request-attributes.ts";
import { answerReview, requestToken } from "../access/review-apis.ts";
import type { UserInfo } from "../access/users.ts";
import { StatusError, Throttled } from "../status-error.ts";
import type { ObjectStore } from "../store/object-store.ts";
import { apiGroup, apiGroupList, apiResourceList, apiVersions, SERVER_VERSION, type ServedVersion } from "./discovery.ts";
import { hasProtobufForm, parseObject, readBody, sendJson, sendObject, sendStatus } from "./http-io.ts";
import { negotiate, responseEncoding, type Encoding } from "./media-types.ts";
import { serveOpenApi } from "./openapi-documents.ts";
import { notFoundPath, parseResourcePath, type ResourcePath } from "./request-path.ts";
import { handleResource } from "./resource-handler.ts";
import { findResource, groupVersion, REVIEWS } from "./resources.ts";
import { WatchHub } from "./watch-stream.ts";

// The simulated cluster's HTTP front: who is asking and whether RBAC lets them (lib/sim/access),
// discovery, the resource verbs, the reviews, and the pod subresources that other parts of the
// simulation serve (eviction and binding by the API machinery, exec and log by the kubelet).
// Every failure leaves as a Status object; nothing a client sends can crash the server.

export interface RequestInfo {
  verb: string;
  path: ResourcePath;
}

/** Handlers for the pod subresources that are not plain storage. */
export interface PodSubresources {
  evict(namespace: string, name: string, body: string, dryRun: boolean): Promise<unknown> | unknown;
  bind(namespace: string, name: string, body: string): Promise<unknown> | unknown;
  log(namespace: string, name: string, query: URLSearchParams): string;
  /** A WebSocket upgrade to pods/exec. */
  exec(request: IncomingMessage, socket: Duplex, head: Buffer, namespace: string, name: string, query: URLSearchParams): void;
}

/** What the API server's proxy reaches on a node: its kubelet's Summary API. */
export interface NodeProxy {
  statsSummary(nodeName: string): unknown;
}

/** Fault injection: may delay a request or fail it with a Status, before it is served. */
export type RequestGate = (info: RequestInfo) => Promise<void> | void;

/** Routes outside the Kubernetes API (the fault API under /sim/v1); true when handled. */
export type ExtraRoutes = (request: IncomingMessage, response: ServerResponse, url: URL) => Promise<boolean>;

export interface ApiServerOptions {
  store: ObjectStore;
  /** Authentication, impersonation and RBAC, in front of every request. */
  access: AccessControl;
  pods: PodSubresources;
  /** Absent: no node runs a kubelet, and the proxy has nothing to reach. */
  nodes?: NodeProxy;
  gate?: RequestGate;
  routes?: ExtraRoutes;
  bookmarkIntervalMs?: number;
  log?: (line: string) => void;
  /** The cluster's time, for the ages a table prints. */
  now: () => Date;
  /**
   * Group versions not served (`agents.x-k8s.io/v1alpha1`), as on a cluster whose definitions
   * dropped them: absent from discovery, 404 on their paths.
   */
  withdrawnVersions?: readonly string[];
}

export class ApiServer {
  readonly watches: WatchHub;
  private readonly servers: Server[] = [];

  constructor(private readonly options: ApiServerOptions) {
    this.watches = new WatchHub(options.store);
  }

  /** Serves plain HTTP (what Berth and the tests use on the loopback), or HTTPS given a certificate. */
  async listen(port = 0, host = "127.0.0.1", tls?: { cert: string; key: string }): Promise<string> {
    const server = this.serverFor(tls);
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, () => resolve());
    });
    this.servers.push(server);
    const address = server.address() as AddressInfo;
    return `${tls ? "https" : "http"}://${host}:${address.port}`;
  }

  private serverFor(tls: { cert: string; key: string } | undefined): Server {
    const handle = (request: IncomingMessage, response: ServerResponse) => {
      const encoding = responseEncoding(request.headers.accept);
      this.serve(request, response, encoding).catch((error: unknown) => this.fail(response, error, encoding));
    };
    // It stands for a cluster's API server, another process: Berth's calls to it go in at once.
    const server: Server = admitAtOnce(tls ? createTlsServer(tls, handle) : createServer(handle));
    server.on("upgrade", (request, socket, head) => this.upgrade(request, socket, head));
    // Watches are long-lived; the default request timeout would cut them.
    server.requestTimeout = 0;
    server.keepAliveTimeout = 65_000;
    return server;
  }

  async close(): Promise<void> {
    this.watches.dropAll();
    await Promise.all(
      this.servers.splice(0).map((server) => {
        server.closeAllConnections();
        return new Promise<void>((resolve) => server.close(() => resolve()));
      }),
    );
  }

  private fail(response: ServerResponse, error: unknown, encoding: Encoding): void {
    if (error instanceof Throttled && !response.headersSent) {
      response.writeHead(429, { "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff", "Retry-After": error.retryAfterSeconds });
      response.end(`${error.message}\n`);
      return;
    }
    const status = error instanceof StatusError ? error : StatusError.internal((error as Error)?.message ?? String(error));
    if (!(error instanceof StatusError)) this.options.log?.(`internal error: ${(error as Error)?.stack ?? String(error)}`);
    if (response.headersSent) {
      response.destroy();
      return;
    }
    sendStatus(response, status, encoding);
  }

  private async serve(request: IncomingMessage, response: ServerResponse, encoding: Encoding): Promise<void> {
    const url = new URL(request.url ?? "/", "http://sim");
    const pathname = url.pathname.replace(/\/+$/, "") || "/";
    const method = request.method ?? "GET";
    this.options.log?.(`${method} ${request.url}`);
    const caller = this.admit(request, new URL(pathname + url.search, "http://sim"), method);
    if (method === "GET" && ["/healthz", "/readyz", "/livez"].includes(pathname)) {
      response.writeHead(200, { "Content-Type": "text/plain" });
      response.end("ok");
      return;
    }
    if (this.options.routes && (await this.options.routes(request, response, url))) return;
    if (method === "GET" && pathname.startsWith("/openapi/") && (await serveOpenApi(request, response, url))) return;
    if (method === "GET") {
      const document = this.discovery(pathname, request);
      if (document !== undefined) return sendJson(response, 200, document);
    }
    const path = parseResourcePath(pathname);
    if (!path) throw notFoundPath(pathname);
    const definition = this.served(path.group, path.version) ? findResource(path.group, path.version, path.resource) : undefined;
    if (!definition) throw notFoundPath(pathname);
    // Decoded before admission and storage (and injected latency): a write whose client has gone
    // still lands, as on a real API server. Built-in kinds may come in protobuf.
    const protobuf = hasProtobufForm(groupVersion(definition.group, path.version), definition.kind);
    const body = ["POST", "PUT", "PATCH", "DELETE"].includes(method) ? await readBody(request, { protobuf }) : "";
    await this.options.gate?.({ verb: verbOf(method, path, url.searchParams), path });

    if (path.resource === "pods" && path.name && path.namespace && path.subresource && path.subresource !== "status") {
      return this.podSubresource(request, response, path, url.searchParams, body, encoding);
    }
    if (path.resource === "nodes" && path.name && path.subresource === "proxy") return this.nodeProxy(method, path, response);
    if (REVIEWS.some((review) => review.group === path.group && review.resource === path.resource)) {
      if (method !== "POST" || path.name) throw StatusError.of(405, "MethodNotAllowed", `the server does not allow this method on the requested resource`);
      return sendObject(response, 201, answerReview(path.resource, parseObject(body), { access: this.options.access, store: this.options.store, caller, namespace: path.namespace }), encoding);
    }
    if (path.resource === "serviceaccounts" && path.subresource === "token" && path.namespace && path.name) {
      if (method !== "POST") throw StatusError.of(405, "MethodNotAllowed", "the server does not allow this method on the requested resource");
      return sendObject(response, 201, requestToken({ access: this.options.access, store: this.options.store, caller }, path.namespace, path.name, parseObject(body)), encoding);
    }
    await handleResource(
      {
        store: this.options.store,
        watches: this.watches,
        bookmarkIntervalMs: this.options.bookmarkIntervalMs ?? 5_000,
        encoding,
        table: negotiate(request.headers.accept).table,
        now: this.options.now,
      },
      { definition, path },
      request,
      response,
      url.searchParams,
      body,
    );
  }

  private async podSubresource(request: IncomingMessage, response: ServerResponse, path: ResourcePath, query: URLSearchParams, body: string, encoding: Encoding): Promise<void> {
    const { namespace, name, subresource } = path as Required<Pick<ResourcePath, "namespace" | "name" | "subresource">>;
    const method = request.method ?? "GET";
    switch (`${method} ${subresource}`) {
      case "POST eviction":
        return sendObject(response, 201, await this.options.pods.evict(namespace, name, body, query.getAll("dryRun").length > 0), encoding);
      case "POST binding":
        return sendObject(response, 201, await this.options.pods.bind(namespace, name, body), encoding);
      case "GET log": {
        const text = this.options.pods.log(namespace, name, query);
        response.writeHead(200, { "Content-Type": "text/plain" });
        response.end(text);
        return;
      }
      case "GET exec":
      case "POST exec":
        throw StatusError.badRequest("Upgrade request required");
      default:
        throw StatusError.of(404, "NotFound", "the server could not find the requested resource");
    }
  }

  /** Only the kubelet endpoint Berth reads is served; any other proxied path is not found, as on a kubelet. */
  // The kubelet answers JSON whatever the client accepts: the proxy passes its body through.
  private nodeProxy(method: string, path: ResourcePath, response: ServerResponse): void {
    if (method !== "GET" || path.proxyPath !== "stats/summary") throw StatusError.of(404, "NotFound", "the server could not find the requested resource");
    if (!this.options.nodes) throw StatusError.of(503, "ServiceUnavailable", `error trying to reach service: no kubelet runs on node ${path.name}`);
    sendJson(response, 200, this.options.nodes.statsSummary(path.name!));
  }

  /** Who the request acts as, once authenticated, impersonation checked and RBAC asked; a Status error otherwise. */
  private admit(request: IncomingMessage, url: URL, method: string): UserInfo {
    const access = this.options.access;
    const caller = access.actingUser(request, access.authenticate(request));
    const attributes = attributesOf(method, url);
    if (!access.authorize(caller, attributes).allowed) throw forbidden(caller, attributes);
    return caller;
  }

  private upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    // Node removes its own error listener before 'upgrade': a client reset must not crash us.
    socket.on("error", () => socket.destroy());
    const url = new URL(request.url ?? "/", "http://sim");
    try {
      this.admit(request, url, request.method ?? "GET");
    } catch (error) {
      const status = error instanceof StatusError ? error.status : StatusError.internal(String(error)).status;
      const text = JSON.stringify(status);
      socket.end(`HTTP/1.1 ${status.code} ${status.reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`);
      return;
    }
    const path = parseResourcePath(url.pathname);
    if (path?.resource === "pods" && path.subresource === "exec" && path.namespace && path.name) {
      try {
        this.options.pods.exec(request, socket, head, path.namespace, path.name, url.searchParams);
      } catch {
        socket.destroy();
      }
      return;
    }
    socket.end("HTTP/1.1 404 Not Found\r\n\r\n");
  }

  private discovery(pathname: string, request: IncomingMessage): unknown {
    if (pathname === "/version") return SERVER_VERSION;
    // The address the client reached: the plain and the TLS listener each name their own.
    if (pathname === "/api") return apiVersions(`127.0.0.1:${request.socket.localPort ?? ""}`);
    if (pathname === "/apis") return apiGroupList(this.served);
    const core = /^\/api\/([^/]+)$/.exec(pathname);
    if (core) return apiResourceList("", core[1]!) ?? undefined;
    const group = /^\/apis\/([^/]+)$/.exec(pathname);
    if (group) {
      const document = apiGroup(group[1]!, this.served);
      return document.versions.length > 0 ? document : undefined;
    }
    const groupVersion = /^\/apis\/([^/]+)\/([^/]+)$/.exec(pathname);
    if (groupVersion) return apiResourceList(groupVersion[1]!, groupVersion[2]!, this.served) ?? undefined;
    return undefined;
  }

  private readonly served: ServedVersion = (group, version) => !this.options.withdrawnVersions?.includes(`${group}/${version}`);
}
