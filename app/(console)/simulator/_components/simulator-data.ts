import { api } from "@/app/(console)/_components/api-client.ts";
import type {
  SimulatorActionResult,
  SimulatorNodeAction,
  SimulatorPodAction,
  SimulatorState,
} from "@/lib/domain/simulator.ts";

// The Simulator page's calls. The state's query key sits under ["nodes"], so the event stream's
// refresh of the nodes (every timeline event) refreshes it too.

export const SIMULATOR_KEY = ["nodes", "simulator"] as const;

export function fetchSimulatorState(signal?: AbortSignal): Promise<SimulatorState> {
  return api.simulatorState({ signal });
}

export function nodeAction(node: string, action: SimulatorNodeAction): Promise<SimulatorActionResult> {
  return api.simulatorNodeAction({ params: { name: node, action }, ...(action === "drain" ? { body: {} } : {}) });
}

export function podAction(namespace: string, pod: string, action: SimulatorPodAction): Promise<SimulatorActionResult> {
  return api.simulatorPodAction({ params: { namespace, name: pod, action } });
}
