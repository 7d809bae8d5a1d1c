import type { SandboxRecord } from "../domain/sandbox-record.ts";
import type { SimulatorPod, SimulatorState } from "../domain/simulator.ts";
import type { NodeView } from "../domain/node-view.ts";
import type { SimulatorClusterState } from "./simulator-client.ts";

// What the Simulator page shows: each node with both views of it — whether its simulated kubelet
// runs (the simulator knows at once) and whether the control plane thinks it Ready (it notices a
// lost node only after a grace period) — and the sandbox pods on it, from Berth's live records.

/** Sandboxes that have, or are waiting for, a pod; a stopped or deleted one has none to act on. */
const HAS_NO_POD = new Set(["Stopping", "Stopped", "Deleting", "Deleted"]);

function podOf(record: SandboxRecord): SimulatorPod {
  return {
    namespace: record.namespace,
    // The agent-sandbox controller names the pod after the sandbox.
    pod: record.podName ?? record.name,
    sandbox: { id: record.id, name: record.name, phase: record.phase, reason: record.reason },
  };
}

const byPod = (a: SimulatorPod, b: SimulatorPod) => `${a.namespace}/${a.pod}`.localeCompare(`${b.namespace}/${b.pod}`);

export function simulatorState(cluster: SimulatorClusterState, nodes: readonly NodeView[], sandboxes: readonly SandboxRecord[]): SimulatorState {
  const withPods = sandboxes.filter((record) => !HAS_NO_POD.has(record.phase));
  const names = [...new Set([...cluster.nodes.map((node) => node.name), ...nodes.map((node) => node.name)])].sort();
  return {
    clock: cluster.clock,
    nodes: names.map((name) => {
      const up = cluster.nodes.find((node) => node.name === name)?.up ?? true;
      const view = nodes.find((node) => node.name === name);
      return {
        name,
        up,
        // Before the watch has seen a new node, say what the simulator says.
        ready: view?.ready ?? up,
        cordoned: view?.cordoned ?? false,
        pods: withPods.filter((record) => record.nodeName === name).map(podOf).sort(byPod),
      };
    }),
    unscheduled: withPods.filter((record) => !record.nodeName || !names.includes(record.nodeName)).map(podOf).sort(byPod),
  };
}
