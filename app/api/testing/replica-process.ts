// A Berth replica as a process of its own, run by replicas.test.ts: the runtime (store, cluster,
// identity, reconciler, leader election, live timeline) as a server starts it, configured by the
// environment, and Berth's HTTP API answered by the app's own route modules on a loopback port.
// It prints what a test needs to follow it, a line each:
//   http <port>                 where its API listens
//   replica <name>              how the store names it (who runs a maintenance run)
//   ready                       its reconciler has synced
//   leading <term> | follows <leader>
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { stampPeerAddresses } from "@/lib/platform/peer-address.ts";
import { getRuntime } from "@/lib/server/runtime.ts";
import { eventually } from "@/lib/sim/testing/eventually.ts";
import { endpointFor, handlerOf } from "./route-modules.ts";

stampPeerAddresses();
const runtime = await getRuntime();
const publicUrl = new URL(runtime.config.auth.publicUrl);

async function serve(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
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

const server = createServer((incoming, outgoing) => {
  serve(incoming, outgoing).catch((error: unknown) => {
    console.error("replica: serving", incoming.url, error);
    if (!outgoing.headersSent) outgoing.writeHead(500);
    outgoing.end();
  });
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
console.log(`http ${(server.address() as AddressInfo).port}`);
console.log(`replica ${runtime.replica}`);

const tell = () => {
  const { leading, holder } = runtime.leadership.state();
  console.log(leading ? `leading ${leading.term}` : `follows ${holder ?? "nobody"}`);
};
runtime.leadership.onChange(tell);
await eventually(() => {
  if (!runtime.reconciler.current()) throw new Error("not synced yet");
}, { timeoutMs: 60_000, intervalMs: 50 });
console.log("ready");
tell();
