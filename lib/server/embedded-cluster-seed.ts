import type { AuthConfig } from "../config/auth-config.ts";
import { BERTH_LEADER_ELECTION_RULES, BERTH_ROLES, BERTH_SERVICE_ACCOUNT_RULES, BERTH_VOLUME_USAGE_RULE, type PolicyRule } from "../domain/berth-roles.ts";
import { EMBEDDED_BERTH_NAMESPACE } from "../domain/cluster-mode.ts";
import { DEMO_BINDINGS, DEMO_NAMESPACES } from "../identity/demo-people.ts";
import { accessObjects, group, serviceAccount } from "../kube/access-objects.ts";
import type { ClusterConnection } from "../kube/cluster-connection.ts";

// What the embedded cluster holds so that Berth runs on it as on a real one: Berth's own service
// account with the chart's permissions (and the simulator's fault API), Berth's ClusterRoles, the
// demo people's namespaces and bindings. Made as the cluster's admin at every start — the way a
// platform team would install Berth — and put back if someone changed them.

export const BERTH_NAMESPACE = EMBEDDED_BERTH_NAMESPACE;
export const BERTH_SERVICE_ACCOUNT = "berth";

/** The simulator's fault API is a non-resource URL of the embedded API server; only Berth calls it. */
const SIMULATOR_RULE: PolicyRule = { nonResourceURLs: ["/sim/v1/*"], verbs: ["get", "post", "delete"] };

export interface SeedOptions {
  /** The managed-namespace label (`<labelPrefix>/managed`). */
  managedLabel: string | null;
  auth: AuthConfig;
}

export async function seedEmbeddedCluster(admin: ClusterConnection, options: SeedOptions): Promise<void> {
  const objects = accessObjects(admin);
  await objects.ensureNamespace(BERTH_NAMESPACE, {});
  await objects.ensureServiceAccount(BERTH_NAMESPACE, BERTH_SERVICE_ACCOUNT);
  // The embedded cluster is Berth's own: it reads the kubelets' volume stats there.
  await objects.ensureClusterRole("berth", [...BERTH_SERVICE_ACCOUNT_RULES, BERTH_VOLUME_USAGE_RULE, SIMULATOR_RULE]);
  await objects.ensureClusterRoleBinding("berth", "berth", [serviceAccount(BERTH_NAMESPACE, BERTH_SERVICE_ACCOUNT)]);
  // Replicas sharing PostgreSQL elect their writer on a Lease in Berth's namespace, as the chart lets them.
  await objects.ensureClusterRole("berth-leader-election", BERTH_LEADER_ELECTION_RULES);
  await objects.ensureRoleBinding(BERTH_NAMESPACE, "berth-leader-election", "berth-leader-election", [serviceAccount(BERTH_NAMESPACE, BERTH_SERVICE_ACCOUNT)]);
  // The demo provider's groups reach Kubernetes with Berth's prefix, as any provider's do.
  await seedDemoTenants(admin, { managedLabel: options.managedLabel, groupsPrefix: options.auth.oidc?.groupsPrefix ?? "" });
}

/**
 * The demo people's tenancy, as a platform team would set it up on any cluster: the managed
 * namespaces, Berth's ClusterRoles, and the demo groups bound to them (groups named as they reach
 * Kubernetes, `groupsPrefix` first).
 */
export async function seedDemoTenants(admin: ClusterConnection, options: { managedLabel: string | null; groupsPrefix: string }): Promise<void> {
  const objects = accessObjects(admin);
  const managed = options.managedLabel ? { [options.managedLabel]: "true" } : {};
  for (const namespace of ["default", ...DEMO_NAMESPACES]) await objects.ensureNamespace(namespace, managed);
  for (const role of BERTH_ROLES) await objects.ensureClusterRole(role.name, role.rules, { "app.kubernetes.io/part-of": "berth" });
  for (const binding of DEMO_BINDINGS) {
    const subjects = [group(`${options.groupsPrefix}${binding.group}`)];
    const name = `${binding.role}:${binding.group}`;
    if (binding.scope === "cluster") await objects.ensureClusterRoleBinding(name, binding.role, subjects);
    else for (const namespace of binding.scope) await objects.ensureRoleBinding(namespace, name, binding.role, subjects);
  }
}
