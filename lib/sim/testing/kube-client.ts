import { KubeConfig } from "@kubernetes/client-node";

/** A KubeConfig for a simulated cluster at `server`, as a user's kubeconfig would point at it, with the user's bearer token. */
export function kubeConfigFor(server: string, token?: string): KubeConfig {
  const config = new KubeConfig();
  config.loadFromOptions({
    clusters: [{ name: "berth-sim", server, skipTLSVerify: true }],
    users: [{ name: "berth-sim-user", ...(token ? { token } : {}) }],
    contexts: [{ name: "berth-sim", cluster: "berth-sim", user: "berth-sim-user" }],
    currentContext: "berth-sim",
  });
  return config;
}
