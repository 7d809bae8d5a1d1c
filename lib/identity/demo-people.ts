import type { Person } from "../domain/person.ts";

// The people of the embedded demo: the local OpenID provider signs them in, and the embedded
// cluster is seeded with their namespaces and RoleBindings, so that `npm start` shows Berth as a
// shared console really is — each person sees and may do what Kubernetes RBAC grants them.

export interface DemoPerson {
  /** The provider's account id (the `sub` claim). */
  id: string;
  name: string;
  email: string;
  /** Groups as the provider states them; Berth prefixes them (oidc:…) as it does any provider's. */
  groups: string[];
  /** What the person is, in a few words, for the sign-in page. */
  describes: string;
}

export const DEMO_NAMESPACES = ["team-a", "team-b"] as const;

export const DEMO_PEOPLE: DemoPerson[] = [
  { id: "paula", name: "Paula Platform", email: "paula@berth.example", groups: ["platform-admins"], describes: "platform admin: every namespace, nodes, maintenance, settings, the audit log" },
  { id: "alex", name: "Alex Developer", email: "alex@berth.example", groups: ["team-a"], describes: "developer in team-a" },
  { id: "bea", name: "Bea Developer", email: "bea@berth.example", groups: ["team-b"], describes: "developer in team-b" },
  { id: "victor", name: "Victor Viewer", email: "victor@berth.example", groups: ["viewers"], describes: "viewer of team-a and team-b" },
];

/**
 * A demo person as a caller is known to Berth when an authenticating proxy or a test states who
 * is asking: the e-mail as the user name, the groups as the provider states them (unprefixed).
 */
export function demoPersonIdentity(id: string): Person {
  const demo = DEMO_PEOPLE.find((one) => one.id === id);
  if (!demo) throw new Error(`no demo person ${id}; there are ${DEMO_PEOPLE.map((one) => one.id).join(", ")}`);
  return { username: demo.email, groups: demo.groups };
}

/** A binding of a Berth role to a group the demo provider states (unprefixed), where it applies. */
export interface DemoBinding {
  group: string;
  role: string;
  /** Namespaces (RoleBindings there), or the whole cluster (a ClusterRoleBinding). */
  scope: readonly string[] | "cluster";
}

export const DEMO_BINDINGS: DemoBinding[] = [
  { group: "platform-admins", role: "berth-platform-admin", scope: "cluster" },
  { group: "team-a", role: "berth-developer", scope: ["team-a"] },
  { group: "team-b", role: "berth-developer", scope: ["team-b"] },
  { group: "viewers", role: "berth-viewer", scope: DEMO_NAMESPACES },
  ...["team-a", "team-b", "viewers"].map((group) => ({ group, role: "berth-cluster-viewer", scope: "cluster" as const })),
];
