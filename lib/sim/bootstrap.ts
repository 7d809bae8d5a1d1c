import type { KubeObject } from "./objects.ts";
import { NODE_LEASE_NAMESPACE } from "./controllers/node-lifecycle.ts";

// The objects a new simulated cluster starts with: the system namespaces and the worker nodes.

export const SYSTEM_NAMESPACES = ["default", "kube-system", "kube-public", NODE_LEASE_NAMESPACE];

export interface NodeShape {
  cpu: string;
  memory: string;
  pods: string;
}

export const DEFAULT_NODE_SHAPE: NodeShape = { cpu: "8", memory: "32Gi", pods: "110" };

export function workerNodeName(index: number): string {
  return `worker-${index + 1}`;
}

export function namespaceObject(name: string): KubeObject {
  return { apiVersion: "v1", kind: "Namespace", metadata: { name, labels: { "kubernetes.io/metadata.name": name } }, spec: { finalizers: ["kubernetes"] }, status: { phase: "Active" } };
}

export function workerNode(index: number, shape: NodeShape = DEFAULT_NODE_SHAPE): KubeObject {
  const name = workerNodeName(index);
  const resources = { cpu: shape.cpu, memory: shape.memory, pods: shape.pods, "ephemeral-storage": "100Gi" };
  return {
    apiVersion: "v1",
    kind: "Node",
    metadata: {
      name,
      labels: {
        "kubernetes.io/hostname": name,
        "kubernetes.io/os": "linux",
        "kubernetes.io/arch": "amd64",
        "topology.kubernetes.io/zone": `zone-${String.fromCharCode(97 + (index % 3))}`,
        "node.berth.dev/simulated": "true",
      },
    },
    spec: { podCIDR: `10.244.${index + 1}.0/24` },
    status: {
      capacity: resources,
      allocatable: resources,
      addresses: [
        { type: "InternalIP", address: `172.18.0.${index + 2}` },
        { type: "Hostname", address: name },
      ],
      nodeInfo: {
        kubeletVersion: "v1.34.0",
        kubeProxyVersion: "v1.34.0",
        containerRuntimeVersion: "containerd://2.1.0",
        osImage: "Berth simulated node",
        operatingSystem: "linux",
        architecture: "amd64",
        kernelVersion: "6.1.0",
        machineID: "",
        systemUUID: "",
        bootID: "",
      },
      conditions: [],
    },
  };
}
