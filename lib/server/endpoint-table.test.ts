import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ENDPOINTS, HTTP_METHODS, type Endpoint } from "../domain/endpoints.ts";

// The endpoint table is the API: a route that exists without a row (and so without saying who
// may call it) fails here, and so does a row that no route serves.

const APP = path.resolve(import.meta.dirname, "../../app");

/** app/api/v1/sandboxes/[id]/route.ts → /api/v1/sandboxes/{id}; route groups such as (console) vanish. */
function routePath(file: string): string {
  const segments = path.relative(APP, path.dirname(file)).split(path.sep).filter((segment) => !/^\(.+\)$/.test(segment));
  return `/${segments.map((segment) => segment.replace(/^\[(.+)\]$/, "{$1}")).join("/")}`;
}

function routeFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

const served = routeFiles(APP).flatMap((file) => {
  const source = readFileSync(file, "utf8");
  return HTTP_METHODS.filter((method) => new RegExp(`export (const|async function|function) ${method}\\b`).test(source)).map((method) => ({ key: `${method} ${routePath(file)}`, file, source }));
});
const table = (Object.entries(ENDPOINTS) as [string, Endpoint][]).map(([id, endpoint]) => ({ id, endpoint, key: `${endpoint.method} ${endpoint.path}` }));

describe("the endpoint table", () => {
  it("has a row for every route the app serves", () => {
    const rows = new Set(table.map((row) => row.key));
    expect(served.map((route) => route.key).filter((key) => !rows.has(key))).toEqual([]);
  });

  it("has a route for every row", () => {
    const routes = new Set(served.map((route) => route.key));
    expect(table.map((row) => row.key).filter((key) => !routes.has(key))).toEqual([]);
  });

  it("is what every route handler is made from", () => {
    // The OpenAPI document is the one exception: built once, at build time, and public by its row.
    const unwrapped = served.filter((route) => route.key !== "GET /api/v1/openapi.json" && !/endpointRoute\("\w+"/.test(route.source));
    expect(unwrapped.map((route) => route.key)).toEqual([]);
  });

  it("names the row each handler serves, and that row's method and path", () => {
    const mismatched = served.flatMap((route) => {
      const ids = [...route.source.matchAll(/export const (\w+) = endpointRoute\("(\w+)"/g)];
      return ids.filter(([, method, id]) => `${method} ${ENDPOINTS[id as keyof typeof ENDPOINTS]?.path}` !== `${method} ${routePath(route.file)}` || ENDPOINTS[id as keyof typeof ENDPOINTS]?.method !== method).map(([, method, id]) => `${method} ${routePath(route.file)} → ${id}`);
    });
    expect(mismatched).toEqual([]);
  });

  it("says how every write is audited", () => {
    expect(table.filter((row) => row.endpoint.method !== "GET" && !row.endpoint.audit).map((row) => row.id)).toEqual([]);
  });

  it("declares path parameters for exactly the path's placeholders", () => {
    const wrong = table.filter(({ endpoint }) => {
      const placeholders = [...endpoint.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
      return JSON.stringify(placeholders) !== JSON.stringify(Object.keys(endpoint.params?.shape ?? {}).sort());
    });
    expect(wrong.map((row) => row.id)).toEqual([]);
  });
});
