import { readFileSync } from "node:fs";
import { parseAllDocuments } from "yaml";
import { beforeAll, describe, expect, it } from "vitest";
import { BERTH_ROLES } from "../../lib/domain/berth-roles.ts";

// The chart's RBAC is no more than Berth needs: every permission its roles for Berth grant was
// used by Berth while the driver suite ran as the chart's service account — read from the API
// server's audit log — or is explained below by what this control plane cannot exercise. And
// it is enough: nothing Berth asked for was forbidden. Run by `npm run test:cluster` after the
// suite, with the audit log and the chart as rendered there.

/**
 * Permissions the suite cannot exercise on this control plane, and why each is still needed.
 * An entry that the suite did use, or that the chart no longer grants, fails the check: this
 * list never outlives its reason.
 */
const NEEDED_BUT_NOT_EXERCISED: Record<string, string> = {
  // Berth's exec is a WebSocket GET, in the audit log as `get` (it is tried here, and fails at the
  // node); since 1.30 the apiserver also authorizes that GET as `create`, which no log shows.
  "pods/exec create": "the command runner, checkpoint hooks and the durable-state marker exec into the agent container, and apiservers since 1.30 authorize that as create too",
  "snapshot.storage.k8s.io/volumesnapshots get": "checkpoint snapshots of the workspace; this control plane serves snapshots but no class has a snapshot driver, so the suite takes none",
  "snapshot.storage.k8s.io/volumesnapshots create": "checkpoint snapshots of the workspace; this control plane serves snapshots but no class has a snapshot driver, so the suite takes none",
  "policy/poddisruptionbudgets delete": "undoing a create that failed after its budget was made; the embedded cluster's fault injection exercises it (lib/sandboxes/create-under-faults.test.ts)",
};

/**
 * Requests the chart's default roles refuse on purpose, because the permission is one a cluster
 * grants only when asked (a chart value): Berth goes on without it and says what is missing.
 */
const REFUSED_UNLESS_ASKED: Record<string, string> = {
  "nodes/proxy get": "how full each claim is, from the kubelets' volume stats: rbac.readVolumeUsage=true grants it; without it Berth shows usage as unknown, naming the grant",
};

interface AuditEvent {
  auditID: string;
  verb: string;
  user: { username: string };
  /** Set when Berth made the request as a person: their request, and Berth's use of impersonation. */
  impersonatedUser?: { username: string; groups?: string[] };
  objectRef?: { apiGroup?: string; resource?: string; subresource?: string };
  responseStatus?: { code?: number; message?: string };
}

interface PolicyRule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
}

const permission = (apiGroup: string | undefined, resource: string, verb: string) => `${apiGroup ? `${apiGroup}/` : ""}${resource} ${verb}`;

let requested: Map<string, number[]>;
let granted: Set<string>;

beforeAll(() => {
  const user = process.env.BERTH_TEST_AUDITED_USER!;
  const events = readFileSync(process.env.BERTH_TEST_AUDIT_LOG!, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line) as AuditEvent);
  requested = new Map();
  // A watch is logged when it starts and again when it ends: one request, counted once.
  const seen = new Set<string>();
  for (const event of events) {
    if (event.user.username !== user || !event.objectRef?.resource || seen.has(event.auditID)) continue;
    seen.add(event.auditID);
    if (event.impersonatedUser) {
      // What the person may do is their bindings' business; Berth's is only that it may act as them.
      const refused = event.responseStatus?.message?.includes("cannot impersonate") ? 403 : 200;
      const used = ["users", ...(event.impersonatedUser.groups?.length ? ["groups"] : [])];
      for (const resource of used) requested.set(permission("", resource, "impersonate"), [...(requested.get(permission("", resource, "impersonate")) ?? []), refused]);
      continue;
    }
    const resource = event.objectRef.subresource ? `${event.objectRef.resource}/${event.objectRef.subresource}` : event.objectRef.resource;
    const key = permission(event.objectRef.apiGroup, resource, event.verb);
    requested.set(key, [...(requested.get(key) ?? []), event.responseStatus?.code ?? 0]);
  }
  const documents = parseAllDocuments(readFileSync(process.env.BERTH_TEST_CHART_MANIFESTS!, "utf8")).map((document) => document.toJS() as { kind?: string; metadata?: { name?: string }; rules?: PolicyRule[] } | null);
  // Berth's own roles (its ClusterRole, and the Role of its leader election), not the ones people are bound to.
  const peoplesRoles = new Set(BERTH_ROLES.map((one) => one.name));
  const roles = documents.filter((document) => (document?.kind === "ClusterRole" || document?.kind === "Role") && !peoplesRoles.has(document.metadata?.name ?? ""));
  granted = new Set(roles.flatMap((role) => role!.rules!).flatMap((rule) => rule.apiGroups.flatMap((group) => rule.resources.flatMap((resource) => rule.verbs.map((verb) => permission(group, resource, verb))))));
});

describe("the chart's roles for Berth, against what Berth did as its service account", () => {
  it("was exercised: the suite made its requests as the service account", () => {
    expect(requested.size).toBeGreaterThan(10);
  });

  it("is enough: no request Berth made was forbidden", () => {
    const forbidden = [...requested].filter(([key, codes]) => codes.includes(403) && !(key in REFUSED_UNLESS_ASKED)).map(([key]) => key);
    expect(forbidden).toEqual([]);
  });

  it("refuses on purpose only what the chart leaves to a value", () => {
    expect(Object.keys(REFUSED_UNLESS_ASKED).filter((key) => granted.has(key))).toEqual([]);
  });

  it("is no more than needed: every permission it grants was used, or is explained", () => {
    const unused = [...granted].filter((key) => !requested.has(key) && !(key in NEEDED_BUT_NOT_EXERCISED));
    expect(unused).toEqual([]);
  });

  it("explains only what it grants and the suite did not use", () => {
    const stale = Object.keys(NEEDED_BUT_NOT_EXERCISED).filter((key) => !granted.has(key) || requested.has(key));
    expect(stale).toEqual([]);
  });
});
