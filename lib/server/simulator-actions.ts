import type { DrainReport, SimulatorActionResult, SimulatorDrainOptions, SimulatorNodeAction, SimulatorPodAction } from "../domain/simulator.ts";
import type { SimulatorClient } from "./simulator-client.ts";

// One simulator action, carried out through the fault API and told in a sentence that says
// what happened and what the cluster (and Berth) will do about it next: the Simulator page is
// where a new user learns what each disruption means.

const list = (keys: string[]) => keys.join(", ");

/** A drain's report in one sentence, kubectl's outcome first. */
export function describeDrain(report: DrainReport): string {
  if (report.refused.length > 0) {
    return `The drain of ${report.node} was refused for ${list(report.refused)}: ${report.refusals.join("; ")}. Nothing was evicted, but the node is cordoned.`;
  }
  if (report.blocked.length > 0) {
    const evicted = report.evicted.length > 0 ? `${list(report.evicted)} evicted; ` : "";
    return `The drain of ${report.node} gave up: ${evicted}${list(report.blocked)} blocked — a PodDisruptionBudget (a protected sandbox) kept refusing the eviction until the timeout. The node stays cordoned; the protected pods keep running on it.`;
  }
  if (report.terminating.length > 0) {
    return `The drain of ${report.node} timed out: ${list(report.terminating)} evicted but still terminating (a long grace period, or a node that is down). The node stays cordoned; they go once their grace period ends or their node answers.`;
  }
  if (report.evicted.length === 0) return `${report.node} drained: nothing to evict. It is cordoned.`;
  return `${report.node} drained: ${list(report.evicted)} evicted and gone; their controllers recreate them on other nodes (or here, once uncordoned, if their volume is pinned to it). The node stays cordoned.`;
}

export async function runNodeAction(client: SimulatorClient, node: string, action: SimulatorNodeAction, drainOptions: SimulatorDrainOptions): Promise<SimulatorActionResult> {
  const result = (message: string, drain: DrainReport | null = null): SimulatorActionResult => ({ target: node, action, message, drain });
  switch (action) {
    case "cordon":
      await client.cordon(node);
      return result(`${node} is cordoned: nothing new is scheduled on it; what runs there keeps running.`);
    case "uncordon":
      await client.uncordon(node);
      return result(`${node} is schedulable again: sandboxes waiting for it (a volume pinned to it) can come back.`);
    case "drain": {
      const report = await client.drain(node, drainOptions);
      return result(describeDrain(report), report);
    }
    case "lose":
      await client.lose(node);
      return result(`${node}'s kubelet stopped answering. The control plane marks the node Not Ready after its 40 s grace period (simulated time) and, 5 minutes later, evicts its pods. A sandbox whose workspace can move (portable storage, or ephemeral) is then recovered on another node; one whose volume is pinned to ${node} waits until the node is restored.`);
    case "restore":
      await client.restore(node);
      return result(`${node}'s kubelet is back: the node turns Ready at its next heartbeat.`);
  }
}

export async function runPodAction(client: SimulatorClient, namespace: string, pod: string, action: SimulatorPodAction): Promise<SimulatorActionResult> {
  const target = `${namespace}/${pod}`;
  const result = (message: string): SimulatorActionResult => ({ target, action, message, drain: null });
  switch (action) {
    case "delete":
      await client.deletePod(namespace, pod);
      return result(`Pod ${target} deleted (within its grace period): the sandbox controller recreates it with the same name, and Berth records the disruption and the recovery.`);
    case "kubelet-evict":
      await client.kubeletEvict(namespace, pod, "memory");
      return result(`The kubelet evicted ${target} under memory pressure: the pod ended Failed, which agent-sandbox does not replace — Berth recovers it unless the sandbox's policy says autoRecoverFailedPods: false.`);
    case "preempt":
      await client.preempt(namespace, pod);
      return result(`The scheduler preempted ${target} for a higher-priority pod: it is deleted, and the sandbox controller recreates it.`);
  }
}
