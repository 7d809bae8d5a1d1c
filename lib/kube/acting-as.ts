import type { ClientRequestArgs, OutgoingHttpHeaders } from "node:http";
import { KubeConfig, type RequestContext } from "@kubernetes/client-node";
import { getGlobalDispatcher, type Dispatcher } from "undici";
import type { Person } from "../domain/person.ts";
import type { ClusterConnection } from "./cluster-connection.ts";

// Every Kubernetes call Berth makes for a person carries that person, so that Kubernetes RBAC
// allows or refuses it: impersonation headers on Berth's own credentials, or the person's own
// bearer token. client-node's `as` option sets only Impersonate-User, and fetch joins repeated
// headers into one comma-separated line — which the API server reads as a single group named
// "a, b". So the headers are added by an undici interceptor, one line per group, below fetch.

/** Whose authority a call to Kubernetes carries. */
export type KubeCredential =
  /** Berth's own identity (its controllers, caches and clean-ups). */
  | { kind: "berth" }
  /** Berth's identity, impersonating the person: OIDC, proxy and session sign-ins. */
  | { kind: "impersonate"; person: Person }
  /** The person's own Kubernetes token (token sign-in, or an API client's bearer token). */
  | { kind: "token"; token: string };

type HeaderLines = [string, string][];

/** The impersonation headers for a person, one [name, value] pair per line, as the API server reads them. */
export function impersonationHeaders(person: Person): HeaderLines {
  const lines: HeaderLines = [["Impersonate-User", person.username]];
  if (person.uid) lines.push(["Impersonate-Uid", person.uid]);
  for (const group of new Set(person.groups)) lines.push(["Impersonate-Group", group]);
  for (const [key, values] of Object.entries(person.extra ?? {})) {
    // Header names are case-insensitive; the API server percent-decodes the key.
    for (const value of values) lines.push([`Impersonate-Extra-${encodeURIComponent(key)}`, value]);
  }
  return lines;
}

const IMPERSONATION_HEADER = /^impersonate-/i;

/** An interceptor that drops any impersonation header already present and appends `lines`. */
function withHeaderLines(lines: HeaderLines): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (options, handler) => {
    const flat: string[] = [];
    const headers = options.headers;
    if (Array.isArray(headers)) {
      for (let index = 0; index + 1 < headers.length; index += 2) flat.push(String(headers[index]), String(headers[index + 1]));
    } else if (headers && typeof headers === "object") {
      for (const [name, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
        for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) flat.push(name, one);
      }
    }
    const kept: string[] = [];
    for (let index = 0; index < flat.length; index += 2) {
      if (!IMPERSONATION_HEADER.test(flat[index]!)) kept.push(flat[index]!, flat[index + 1]!);
    }
    for (const [name, value] of lines) kept.push(name, value);
    return dispatch({ ...options, headers: kept }, handler);
  };
}

/** Berth's KubeConfig, with every request — API calls, watches and exec's WebSocket — made as the person. */
class ImpersonatingKubeConfig extends KubeConfig {
  private readonly lines: HeaderLines;

  constructor(base: KubeConfig, person: Person) {
    super();
    this.loadFromOptions({ clusters: base.clusters, users: base.users, contexts: base.contexts, currentContext: base.getCurrentContext() });
    this.lines = impersonationHeaders(person);
  }

  override async applySecurityAuthentication(context: RequestContext): Promise<void> {
    await super.applySecurityAuthentication(context);
    context.setDispatcher((context.getDispatcher() ?? getGlobalDispatcher()).compose(withHeaderLines(this.lines)));
  }

  /** For exec's WebSocket: node's http sends an array value as one header line per element. */
  override async applyToHTTPSOptions(options: Parameters<KubeConfig["applyToHTTPSOptions"]>[0]): Promise<void> {
    await super.applyToHTTPSOptions(options);
    const headers: OutgoingHttpHeaders = { ...((options as ClientRequestArgs).headers as OutgoingHttpHeaders | undefined) };
    for (const name of Object.keys(headers)) if (IMPERSONATION_HEADER.test(name)) delete headers[name];
    for (const [name, value] of this.lines) {
      const present = headers[name];
      headers[name] = present === undefined ? [value] : [...(Array.isArray(present) ? present : [String(present)]), value];
    }
    (options as ClientRequestArgs).headers = headers;
  }
}

function withToken(base: KubeConfig, token: string): KubeConfig {
  const cluster = base.getCurrentCluster();
  if (!cluster) throw new Error("Berth's kubeconfig has no current cluster");
  const config = new KubeConfig();
  config.loadFromClusterAndUser(cluster, { name: "person", token });
  return config;
}

/**
 * A credential that can be kept, for work that outlives the request (a maintenance run, which
 * the elected writer runs, perhaps in another replica): a bearer token is never kept, so its
 * owner, as Kubernetes named them, is impersonated instead.
 */
export function lastingCredential(credential: KubeCredential, person: Person | null): Exclude<KubeCredential, { kind: "token" }> {
  if (credential.kind !== "token") return credential;
  if (!person) throw new Error("a token's owner is needed to keep its authority");
  return { kind: "impersonate", person };
}

/** The connection to use for a call made with `credential`'s authority. */
export function connectionFor(berth: ClusterConnection, credential: KubeCredential): ClusterConnection {
  switch (credential.kind) {
    case "berth":
      return berth;
    case "impersonate":
      return { ...berth, kubeConfig: new ImpersonatingKubeConfig(berth.kubeConfig, credential.person) };
    case "token":
      return { ...berth, kubeConfig: withToken(berth.kubeConfig, credential.token) };
  }
}
