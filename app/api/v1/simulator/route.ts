import { ClusterUnavailableError } from "@/lib/server/api-problems.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { simulatorOf } from "@/lib/server/simulator-route.ts";
import { simulatorState } from "@/lib/server/simulator-state.ts";

export const dynamic = "force-dynamic";

/** The embedded cluster's nodes (kubelet up, Ready, cordoned) with the sandbox pods on each; 404 on a real cluster. */
export const GET = endpointRoute("simulatorState", async ({ runtime }) => {
  const simulator = simulatorOf(runtime.cluster);
  const reconciler = runtime.reconciler.current();
  if (!reconciler) throw new ClusterUnavailableError("Berth is not watching the simulated cluster yet; see GET /api/health.");
  return Response.json(simulatorState(await simulator.state(), reconciler.nodeViews(), runtime.live.all()), { headers: { "Cache-Control": "no-store" } });
});
