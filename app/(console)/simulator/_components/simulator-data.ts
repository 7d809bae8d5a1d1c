import { postAction } from "@/app/(console)/_components/action-problem.ts";
import {
  simulatorActionResultSchema,
  simulatorStateSchema,
  type SimulatorActionResult,
  type SimulatorNodeAction,
  type SimulatorPodAction,
  type SimulatorState,
} from "@/lib/domain/simulator.ts";

// The Simulator page's calls. The state's query key sits under ["nodes"], so the event stream's
// refresh of the nodes (every timeline event) refreshes it too.

export const SIMULATOR_KEY = ["nodes", "simulator"] as const;

export async function fetchSimulatorState(signal?: AbortSignal): Promise<SimulatorState> {
  const response = await fetch("/api/v1/simulator", { signal });
  if (!response.ok) throw new Error(`Reading the simulated cluster failed: HTTP ${response.status}`);
  return simulatorStateSchema.parse(await response.json());
}

export function nodeAction(node: string, action: SimulatorNodeAction): Promise<SimulatorActionResult> {
  return postAction(`/api/v1/simulator/nodes/${encodeURIComponent(node)}/${action}`, simulatorActionResultSchema, action === "drain" ? {} : undefined);
}

export function podAction(namespace: string, pod: string, action: SimulatorPodAction): Promise<SimulatorActionResult> {
  return postAction(`/api/v1/simulator/pods/${encodeURIComponent(namespace)}/${encodeURIComponent(pod)}/${action}`, simulatorActionResultSchema);
}
