import { CLUSTER_CAPABILITIES, CLUSTER_CAPABILITY_NAMES, NAMESPACE_CAPABILITIES, NAMESPACE_CAPABILITY_NAMES, type WhoAmI } from "../domain/who-am-i.ts";
import type { Caller } from "../identity/authenticate.ts";
import { managedNamespaces } from "./managed-namespaces.ts";
import type { Runtime } from "./runtime.ts";

// GET /api/v1/whoami: the signed-in person and what Kubernetes lets them do through Berth, in
// every namespace Berth manages — each answer a SubjectAccessReview (cached), never a guess.

export async function whoAmI(runtime: Pick<Runtime, "config" | "cluster" | "identity">, caller: Caller): Promise<WhoAmI> {
  const { decisions } = runtime.identity;
  const person = caller.person;
  const namespaces = await Promise.all(
    (await managedNamespaces(runtime)).map(async (namespace) => {
      const answers = await Promise.all(NAMESPACE_CAPABILITY_NAMES.map(async (name) => [name, await decisions.allows(person, { resource: { ...NAMESPACE_CAPABILITIES[name], namespace } })] as const));
      return { namespace, may: answers.filter(([, allowed]) => allowed).map(([name]) => name) };
    }),
  );
  const clusterAnswers = await Promise.all(CLUSTER_CAPABILITY_NAMES.map(async (name) => [name, await decisions.allows(person, { resource: CLUSTER_CAPABILITIES[name] })] as const));
  const cluster = clusterAnswers.filter(([, allowed]) => allowed).map(([name]) => name);
  return { person, signedInWith: caller.signedInWith, namespaces, cluster, role: describeRole(cluster, namespaces) };
}

/** The widest Berth role the person holds somewhere, in words for the header. */
function describeRole(cluster: string[], namespaces: WhoAmI["namespaces"]): string | null {
  if (cluster.includes("runMaintenance") && cluster.includes("changeSettings")) return "berth-platform-admin";
  const developerIn = namespaces.filter((entry) => entry.may.includes("createSandboxes")).map((entry) => entry.namespace);
  if (developerIn.length > 0) return `berth-developer in ${developerIn.join(", ")}`;
  const viewerIn = namespaces.filter((entry) => entry.may.includes("listSandboxes")).map((entry) => entry.namespace);
  if (viewerIn.length > 0) return `berth-viewer in ${viewerIn.join(", ")}`;
  return cluster.includes("listNodes") ? "berth-cluster-viewer" : null;
}
