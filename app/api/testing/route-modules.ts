import path from "node:path";
import { ENDPOINTS, type EndpointId } from "@/lib/domain/endpoints.ts";

// The route module the app serves each endpoint from, found as Next.js finds it: the endpoint's
// path as folders, `{name}` as `[name]`. For tests that answer requests with the real handlers.

export type RouteHandler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response> | Response;

/** /api/v1/sandboxes/{id} → app/api/v1/sandboxes/[id]/route.ts */
export function routeModuleOf(endpointPath: string): string {
  const appDir = path.resolve(import.meta.dirname, "../..");
  return path.join(appDir, endpointPath.replace(/\{(\w+)\}/g, "[$1]"), "route.ts");
}

export async function handlerOf(id: EndpointId): Promise<RouteHandler> {
  const endpoint = ENDPOINTS[id];
  const routeModule = (await import(routeModuleOf(endpoint.path))) as Record<string, RouteHandler | undefined>;
  const handler = routeModule[endpoint.method];
  if (!handler) throw new Error(`${routeModuleOf(endpoint.path)} exports no ${endpoint.method} for ${id}`);
  return handler;
}

const PATTERNS = (Object.keys(ENDPOINTS) as EndpointId[]).map((id) => {
  const names: string[] = [];
  const source = ENDPOINTS[id].path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{(\w+)\}/g, (_, name: string) => {
    names.push(name);
    return "([^/]+)";
  });
  return { id, method: ENDPOINTS[id].method as string, pattern: new RegExp(`^${source}$`), names };
  // A path of fixed segments wins over one with parameters, as in Next.js.
}).sort((a, b) => a.names.length - b.names.length);

/** The endpoint a request is for, with its path parameters decoded; null when there is none. */
export function endpointFor(method: string, pathname: string): { id: EndpointId; params: Record<string, string> } | null {
  for (const { id, method: wanted, pattern, names } of PATTERNS) {
    const match = wanted === method ? pattern.exec(pathname) : null;
    if (match) return { id, params: Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(match[index + 1]!)])) };
  }
  return null;
}
