import { StatusError } from "../status-error.ts";

// Kubernetes REST paths:
//   /api/v1[/namespaces/{ns}]/{resource}[/{name}[/{subresource}]]
//   /apis/{group}/{version}[/namespaces/{ns}]/{resource}[/{name}[/{subresource}]]
// and the legacy /api/v1/watch/... form of a watch.

export interface ResourcePath {
  group: string;
  version: string;
  namespace?: string;
  resource: string;
  name?: string;
  subresource?: string;
  /** The legacy `/watch/` path prefix was used. */
  watchPrefix: boolean;
  /** What follows `/proxy` (`stats/summary` of `nodes/{node}/proxy/stats/summary`): the proxied path, not part of the resource. */
  proxyPath?: string;
}

export function parseResourcePath(pathname: string): ResourcePath | null {
  const parts = pathname.split("/").filter(Boolean).map(decodeURIComponent);
  let group: string;
  let version: string;
  let rest: string[];
  if (parts[0] === "api" && parts.length >= 3) {
    group = "";
    version = parts[1]!;
    rest = parts.slice(2);
  } else if (parts[0] === "apis" && parts.length >= 4) {
    group = parts[1]!;
    version = parts[2]!;
    rest = parts.slice(3);
  } else {
    return null;
  }
  let watchPrefix = false;
  if (rest[0] === "watch") {
    watchPrefix = true;
    rest = rest.slice(1);
  }
  // "namespaces/{ns}/{resource}..." is namespaced; "namespaces[/{name}[/status]]" is the namespace itself.
  if (rest[0] === "namespaces" && rest.length >= 3 && !(rest.length === 3 && (rest[2] === "status" || rest[2] === "finalize"))) {
    const [, namespace, resource, name, subresource, ...extra] = rest;
    if (extra.length > 0 && subresource !== "proxy") return null;
    return { group, version, namespace, resource: resource!, name, subresource, watchPrefix, ...proxied(subresource, extra) };
  }
  const [resource, name, subresource, ...extra] = rest;
  if (!resource || (extra.length > 0 && subresource !== "proxy")) return null;
  return { group, version, resource, name, subresource, watchPrefix, ...proxied(subresource, extra) };
}

// As the API server's RequestInfoFactory has it: the path after `proxy` is the proxied request's
// own, and authorization sees only the resource, its name and the `proxy` subresource.
function proxied(subresource: string | undefined, extra: string[]): { proxyPath?: string } {
  return subresource === "proxy" ? { proxyPath: extra.join("/") } : {};
}

export function notFoundPath(pathname: string): StatusError {
  return StatusError.of(404, "NotFound", `the server could not find the requested resource (${pathname})`);
}
