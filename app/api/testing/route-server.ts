import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { stampPeerAddresses } from "@/lib/platform/peer-address.ts";
import { endpointFor, handlerOf } from "./route-modules.ts";

// Berth's HTTP API answered by the app's own route modules on a loopback port, as the runtime
// this process started serves it: for tests that call the API over HTTP as a client does (the
// typed client, the CLI, several replicas) without building the Next.js server.

export interface RouteServer {
  url: string;
  /** Ends every open connection (event streams included) as a restarting proxy would; the server keeps listening. */
  dropConnections(): void;
  close(): Promise<void>;
}

async function serve(publicUrl: URL, incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
  const url = new URL(incoming.url ?? "/", publicUrl);
  const route = endpointFor(incoming.method ?? "GET", url.pathname);
  if (!route) {
    outgoing.writeHead(404).end();
    return;
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
  }
  // Answered as at the public URL, which is what a proxy in front of the replicas would present.
  headers.set("host", publicUrl.host);
  const closed = new AbortController();
  outgoing.on("close", () => closed.abort());
  const hasBody = !["GET", "HEAD"].includes(incoming.method ?? "GET");
  const request = new Request(url, {
    method: incoming.method,
    headers,
    signal: closed.signal,
    ...(hasBody ? { body: Readable.toWeb(incoming) as ReadableStream, duplex: "half" } : {}),
  } as RequestInit);
  const response = await (await handlerOf(route.id))(request, { params: Promise.resolve(route.params) });
  outgoing.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) {
    outgoing.end();
    return;
  }
  Readable.fromWeb(response.body as import("node:stream/web").ReadableStream).on("error", () => outgoing.destroy()).pipe(outgoing);
}

/** Serves the route modules on 127.0.0.1 at `port` (0: any free one), answering as at `publicUrl`. */
export async function serveRouteModules(publicUrl: URL, port = 0): Promise<RouteServer> {
  stampPeerAddresses();
  const server = createServer((incoming, outgoing) => {
    serve(publicUrl, incoming, outgoing).catch((error: unknown) => {
      console.error("route server: serving", incoming.url, error);
      if (!outgoing.headersSent) outgoing.writeHead(500);
      outgoing.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    dropConnections: () => server.closeAllConnections(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
