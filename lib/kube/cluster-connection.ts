import { ApisApi, KubeConfig } from "@kubernetes/client-node";
import type { ClusterMode } from "../domain/cluster-mode.ts";
import { SANDBOX_API_GROUP, SANDBOX_API_VERSIONS, type SandboxApiVersion } from "../domain/sandbox-api.ts";
import { assessAgentSandboxInstall, EXTENSIONS_API_GROUP, type AgentSandboxInstall } from "../domain/agent-sandbox-install.ts";

// How Berth reaches Kubernetes: the one KubeConfig every other part of lib/kube uses, whether it
// points at a real cluster (kubeconfig, in-cluster service account) or at the embedded
// simulated one, which is reached over HTTP exactly like a real one.

export interface ClusterConnection {
  mode: ClusterMode;
  /** The API server's address. */
  server: string;
  kubeConfig: KubeConfig;
}

export class ClusterConfigurationError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "ClusterConfigurationError";
  }
}

/** A connection to a real cluster, from a kubeconfig file or the pod's service account. */
export function connectToRealCluster(mode: Exclude<ClusterMode, "embedded">, kubeconfigPath: string | null): ClusterConnection {
  const kubeConfig = new KubeConfig();
  try {
    if (mode === "in-cluster") kubeConfig.loadFromCluster();
    else if (kubeconfigPath) kubeConfig.loadFromFile(kubeconfigPath);
    else kubeConfig.loadFromDefault();
  } catch (error) {
    throw new ClusterConfigurationError(
      mode === "in-cluster"
        ? `Cannot use the pod's service account: ${(error as Error).message}`
        : `Cannot read the kubeconfig ${kubeconfigPath ?? "(default location)"}: ${(error as Error).message}. Check KUBECONFIG, or unset it to use the embedded cluster.`,
      { cause: error },
    );
  }
  const cluster = kubeConfig.getCurrentCluster();
  if (!cluster) throw new ClusterConfigurationError(`The kubeconfig ${kubeconfigPath ?? ""} has no current cluster: set current-context.`);
  return { mode, server: cluster.server, kubeConfig };
}

/** A connection to the embedded cluster served at `server`, with a bearer token of its own. */
export function connectToEmbeddedCluster(server: string, token: string): ClusterConnection {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions(embeddedOptions(server, token));
  return { mode: "embedded", server, kubeConfig };
}

function embeddedOptions(server: string, token: string) {
  return {
    clusters: [{ name: "berth-embedded", server, skipTLSVerify: true }],
    users: [{ name: "berth-embedded", token }],
    contexts: [{ name: "berth-embedded", cluster: "berth-embedded", user: "berth-embedded" }],
    currentContext: "berth-embedded",
  };
}

/** A renewed token for an embedded connection: every client made from it sends the new one from now on. */
export function useToken(connection: ClusterConnection, token: string): void {
  connection.kubeConfig.loadFromOptions(embeddedOptions(connection.server, token));
}

/** The bearer token a connection sends (for the embedded cluster's fault API, which is not client-node's). */
export function bearerTokenOf(connection: ClusterConnection): string | undefined {
  return connection.kubeConfig.getCurrentUser()?.token;
}

export type SandboxApiDiscovery =
  | { ok: true; version: SandboxApiVersion; install: AgentSandboxInstall }
  | { ok: false; reason: "unreachable" | "not-installed"; message: string };

/**
 * Which Sandbox version the cluster serves (v1beta1 when it can, else the deprecated v1alpha1),
 * and what else its agent-sandbox install serves. An API server that does not answer within
 * `timeoutMs` counts as unreachable.
 */
export async function discoverSandboxApi(connection: ClusterConnection, timeoutMs = 3_000): Promise<SandboxApiDiscovery> {
  let groups;
  let timer: NodeJS.Timeout | undefined;
  try {
    groups = await Promise.race([
      connection.kubeConfig.makeApiClient(ApisApi).getAPIVersions(),
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
      }),
    ]);
  } catch (error) {
    return { ok: false, reason: "unreachable", message: `The Kubernetes API at ${connection.server} does not answer: ${(error as Error).message}` };
  } finally {
    clearTimeout(timer);
  }
  const versionsOf = (name: string) => groups.groups.find((group) => group.name === name)?.versions.map((entry) => entry.version) ?? [];
  const install = assessAgentSandboxInstall({ sandbox: versionsOf(SANDBOX_API_GROUP), extensions: versionsOf(EXTENSIONS_API_GROUP) });
  if (!install) {
    return {
      ok: false,
      reason: "not-installed",
      message: `The cluster at ${connection.server} does not serve ${SANDBOX_API_GROUP} (${SANDBOX_API_VERSIONS.join(" or ")}): install the agent-sandbox controller and its CRDs (kubernetes-sigs/agent-sandbox).`,
    };
  }
  return { ok: true, version: install.sandboxApiVersion, install };
}
