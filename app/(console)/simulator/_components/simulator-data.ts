import { callApi } from "@/app/(console)/_components/api-client.ts";
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

export function fetchSimulatorState(signal?: AbortSignal): Promise<SimulatorState> {
  return callApi("/api/v1/simulator", simulatorStateSchema, { signal });
}

export function nodeAction(node: string, action: SimulatorNodeAction): Promise<SimulatorActionResult> {
  return callApi(`/api/v1/simulator/nodes/${encodeURIComponent(node)}/${action}`, simulatorActionResultSchema, { method: "POST", body: action === "drain" ? {} : undefined });
}

export function podAction(namespace: string, pod: string, action: SimulatorPodAction): Promise<SimulatorActionResult> {
  return callApi(`/api/v1/simulator/pods/${encodeURIComponent(namespace)}/${encodeURIComponent(pod)}/${action}`, simulatorActionResultSchema, { method: "POST" });
}
