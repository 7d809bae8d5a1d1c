import { CoreV1Api, CustomObjectsApi, PolicyV1Api, StorageV1Api, type KubeConfig } from "@kubernetes/client-node";
import { startSimulatedCluster, type SimCluster, type SimulatedClusterOptions } from "../index.ts";
import { kubeConfigFor } from "./kube-client.ts";

// A simulated cluster for behaviour tests, reached only through @kubernetes/client-node, as the
// product reaches it. Time runs 200× faster: a 30 s grace period passes in 150 ms.

export interface SimFixture {
  cluster: SimCluster;
  config: KubeConfig;
  core: CoreV1Api;
  custom: CustomObjectsApi;
  policy: PolicyV1Api;
  storage: StorageV1Api;
  /** POSTs to the fault API. */
  fault(path: string, body?: unknown): Promise<unknown>;
  /** DELETE /sim/v1/api-faults: every injected API fault is lifted. */
  clearApiFaults(): Promise<void>;
}

export async function startSimFixture(options: SimulatedClusterOptions = {}): Promise<SimFixture> {
  const cluster = await startSimulatedCluster({ clockScale: 200, ...options });
  const config = kubeConfigFor(cluster.serverUrl, cluster.adminToken);
  const asAdmin = { Authorization: `Bearer ${cluster.adminToken}` };
  return {
    cluster,
    config,
    core: config.makeApiClient(CoreV1Api),
    custom: config.makeApiClient(CustomObjectsApi),
    policy: config.makeApiClient(PolicyV1Api),
    storage: config.makeApiClient(StorageV1Api),
    async fault(path, body) {
      const response = await fetch(`${cluster.serverUrl}/sim/v1/${path}`, { method: "POST", headers: { "Content-Type": "application/json", ...asAdmin }, body: JSON.stringify(body ?? {}) });
      const json = (await response.json()) as unknown;
      if (!response.ok) throw new Error(`fault ${path} failed: ${JSON.stringify(json)}`);
      return json;
    },
    async clearApiFaults() {
      const response = await fetch(`${cluster.serverUrl}/sim/v1/api-faults`, { method: "DELETE", headers: asAdmin });
      if (!response.ok) throw new Error(`clearing the API faults failed: HTTP ${response.status}`);
    },
  };
}

export interface SandboxOptions {
  name: string;
  namespace?: string;
  /** Claim templates: the default is the OpenShell workspace (2Gi, cluster default class). */
  volumeClaimTemplates?: unknown[];
  volumes?: unknown[];
  operatingMode?: "Running" | "Suspended";
  labels?: Record<string, string>;
  storageClassName?: string;
}

/** A Sandbox as Berth renders it by default: agent container, workspace claim template at /sandbox. */
export function aSandbox(options: SandboxOptions) {
  const template = {
    metadata: { name: "workspace" },
    spec: {
      accessModes: ["ReadWriteOnce"],
      resources: { requests: { storage: "2Gi" } },
      ...(options.storageClassName !== undefined ? { storageClassName: options.storageClassName } : {}),
    },
  };
  return {
    apiVersion: "agents.x-k8s.io/v1beta1",
    kind: "Sandbox",
    metadata: { name: options.name, namespace: options.namespace ?? "default" },
    spec: {
      operatingMode: options.operatingMode ?? "Running",
      podTemplate: {
        metadata: { labels: { app: "agent", ...options.labels } },
        spec: {
          terminationGracePeriodSeconds: 30,
          containers: [{ name: "agent", image: "ghcr.io/nvidia/openshell-community/sandboxes/base:latest", command: ["sleep", "infinity"], volumeMounts: [{ name: "workspace", mountPath: "/sandbox" }] }],
          ...(options.volumes ? { volumes: options.volumes } : {}),
        },
      },
      volumeClaimTemplates: options.volumeClaimTemplates ?? [template],
    },
  };
}
