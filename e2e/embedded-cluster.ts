import { readFileSync } from "node:fs";
import path from "node:path";
import { Agent, fetch, type RequestInit } from "undici";

// The embedded cluster behind a test's server, reached as its administrator (the token in the
// kubeconfig the cluster writes into its data directory): for what a test does to the cluster
// itself, as an operator would with kubectl — never what Berth is asked to do.

interface Kubeconfig {
  clusters: { cluster: { server: string; "certificate-authority-data": string } }[];
  users: { user: { token?: string } }[];
}

/** fetch against the project's embedded cluster, as its admin. */
export function clusterAdmin(project: string) {
  const dataDir = process.env[`BERTH_E2E_DATA_DIR_${project.toUpperCase()}`];
  if (!dataDir) throw new Error(`no data directory is known for the ${project} project (playwright.config.ts sets it)`);
  const kubeconfig = JSON.parse(readFileSync(path.join(dataDir, "cluster", "kubeconfig"), "utf8")) as Kubeconfig;
  const { server, "certificate-authority-data": ca } = kubeconfig.clusters[0]!.cluster;
  const token = kubeconfig.users[0]!.user.token;
  // The cluster's own certificate, trusted as kubectl trusts it from the same kubeconfig.
  const dispatcher = new Agent({ connect: { ca: Buffer.from(ca, "base64").toString("utf8") } });
  return (apiPath: string, init: RequestInit = {}) => fetch(`${server}${apiPath}`, { ...init, dispatcher, headers: { ...(init.headers as Record<string, string>), ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(init.body ? { "Content-Type": "application/json" } : {}) } });
}
