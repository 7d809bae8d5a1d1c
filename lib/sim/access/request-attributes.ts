import type { IncomingMessage } from "node:http";
import { queryFlag } from "../api/http-io.ts";
import { parseResourcePath, type ResourcePath } from "../api/request-path.ts";
import { StatusError } from "../status-error.ts";
import type { Attributes } from "./rbac-authorizer.ts";
import type { UserInfo } from "./users.ts";

// What a request asks the authorizer, as k8s.io/apiserver's RequestInfoFactory derives it: a
// resource request (verb, group, resource, subresource, namespace, name) for the REST paths, a
// non-resource request (the path and the lowercase HTTP method) for everything else.

/** The API verb of a request on a resource path. */
export function verbOf(method: string, path: ResourcePath, query: URLSearchParams): string {
  // exec, attach and portforward are authorized as create, even over a WebSocket's GET.
  if (path.subresource && ["exec", "attach", "portforward"].includes(path.subresource)) return "create";
  if (path.subresource && !["status"].includes(path.subresource)) return method === "GET" ? "get" : "create";
  switch (method) {
    case "GET":
    case "HEAD":
      return path.watchPrefix || queryFlag(query, "watch") ? "watch" : path.name ? "get" : "list";
    case "POST":
      return "create";
    case "PUT":
      return "update";
    case "PATCH":
      return "patch";
    case "DELETE":
      return path.name ? "delete" : "deletecollection";
    default:
      return method.toLowerCase();
  }
}

export function attributesOf(method: string, url: URL): Attributes {
  const path = parseResourcePath(url.pathname);
  if (!path) return { kind: "non-resource", nonResource: { verb: method.toLowerCase(), path: url.pathname } };
  const name = path.name;
  return {
    kind: "resource",
    resource: {
      verb: verbOf(method, path, url.searchParams),
      group: path.group,
      resource: path.resource,
      ...(path.subresource ? { subresource: path.subresource } : {}),
      ...(path.namespace ? { namespace: path.namespace } : {}),
      ...(name ? { name } : {}),
    },
  };
}

const quote = (value: string) => `"${value}"`;

/** A refusal in the API server's words (k8s.io/apiserver/pkg/endpoints/handlers/responsewriters.forbiddenMessage). */
export function forbidden(user: UserInfo, attributes: Attributes, reason = ""): StatusError {
  const suffix = reason ? `: ${reason}` : "";
  if (attributes.kind === "non-resource") {
    const { verb, path } = attributes.nonResource;
    return StatusError.of(403, "Forbidden", `forbidden: User ${quote(user.username)} cannot ${verb} path ${quote(path)}${suffix}`, {});
  }
  const { verb, group, resource, subresource, namespace, name } = attributes.resource;
  const qualified = group ? `${resource}.${group}` : resource;
  const combined = subresource ? `${resource}/${subresource}` : resource;
  const subject = name ? `${qualified} ${quote(name)}` : qualified;
  const where = namespace ? `in the namespace ${quote(namespace)}` : "at the cluster scope";
  return StatusError.of(403, "Forbidden", `${subject} is forbidden: User ${quote(user.username)} cannot ${verb} resource ${quote(combined)} in API group ${quote(group)} ${where}${suffix}`, {
    ...(name ? { name } : {}),
    ...(group ? { group } : {}),
    kind: resource,
  });
}

/** The repeated values of one header, one per line as sent (node joins them in request.headers). */
export function headerLines(request: IncomingMessage, name: string): string[] {
  const lines: string[] = [];
  for (let index = 0; index + 1 < request.rawHeaders.length; index += 2) {
    if (request.rawHeaders[index]!.toLowerCase() === name) lines.push(request.rawHeaders[index + 1]!);
  }
  return lines;
}
