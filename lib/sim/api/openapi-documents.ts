import type { IncomingMessage, ServerResponse } from "node:http";
import { StatusError } from "../status-error.ts";

// /openapi/v2 and /openapi/v3, as the API server publishes them and kubectl reads them (for
// `apply`, `explain` and validation): documents of exactly what this cluster serves, generated
// by scripts/generate-openapi.ts. v3 is an index of group versions, each document addressed with
// the hash of its content (immutable once fetched); v2 is one document, in protobuf for
// client-go and JSON for everyone else. Loaded on first request: most clusters never need them.

interface Documents {
  v3: Map<string, { json: string; hash: string }>;
  v2: { json: string; protobuf: Buffer };
}

let loaded: Promise<Documents> | null = null;

async function documents(): Promise<Documents> {
  loaded ??= (async () => {
    // Generated as text with their hashes (scripts/kube-openapi): nothing here is parsed into objects.
    const [{ default: v3 }, { default: v2 }] = await Promise.all([
      import("./generated/openapi-v3.json", { with: { type: "json" } }),
      import("./generated/openapi-v2.json", { with: { type: "json" } }),
    ]);
    const byPath = new Map(Object.entries(v3 as Record<string, { document: string; hash: string }>).map(([path, { document, hash }]) => [path, { json: document, hash }]));
    const { document, protobufBase64 } = v2 as { document: string; protobufBase64: string };
    return { v3: byPath, v2: { json: document, protobuf: Buffer.from(protobufBase64, "base64") } };
  })();
  return loaded;
}

const V2_PROTOBUF = ["application/com.github.proto-openapi.spec.v2@v1.0+protobuf", "application/com.github.proto-openapi.spec.v2.v1.0+protobuf"];

function send(response: ServerResponse, contentType: string, body: string | Buffer, cacheControl: string, etag?: string): void {
  response.writeHead(200, { "Content-Type": contentType, "Cache-Control": cacheControl, ...(etag ? { ETag: `"${etag}"` } : {}), "Content-Length": Buffer.byteLength(body) });
  response.end(body);
}

/** Answers a GET under /openapi; false when the path is not one of its documents. */
export async function serveOpenApi(request: IncomingMessage, response: ServerResponse, url: URL): Promise<boolean> {
  const pathname = url.pathname.replace(/\/+$/, "");
  if (pathname === "/openapi/v2") {
    const { v2 } = await documents();
    const accept = request.headers.accept ?? "";
    if (V2_PROTOBUF.some((type) => accept.includes(type))) send(response, V2_PROTOBUF[0]!, v2.protobuf, "no-cache, private");
    else send(response, "application/json", v2.json, "no-cache, private");
    return true;
  }
  if (pathname === "/openapi/v3") {
    const { v3 } = await documents();
    const paths = Object.fromEntries([...v3].map(([path, { hash }]) => [path, { serverRelativeURL: `/openapi/v3/${path}?hash=${hash}` }]));
    send(response, "application/json", JSON.stringify({ paths }), "no-cache, private");
    return true;
  }
  if (!pathname.startsWith("/openapi/v3/")) return false;
  const { v3 } = await documents();
  const path = pathname.slice("/openapi/v3/".length);
  const document = v3.get(path);
  if (!document) throw StatusError.of(404, "NotFound", `the server has no OpenAPI document for ${path}`);
  const asked = url.searchParams.get("hash");
  if (asked !== null && asked !== document.hash) {
    // An old hash: the API server sends the client to the current document.
    response.writeHead(301, { Location: `/openapi/v3/${path}?hash=${document.hash}`, "Cache-Control": "no-cache, private" });
    response.end();
    return true;
  }
  send(response, "application/json", document.json, asked === null ? "no-cache, private" : "public, immutable", document.hash);
  return true;
}
