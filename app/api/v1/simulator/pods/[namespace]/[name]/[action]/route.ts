import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { runPodAction } from "@/lib/server/simulator-actions.ts";
import { simulatorOf } from "@/lib/server/simulator-route.ts";

export const dynamic = "force-dynamic";

/** Delete a pod of the embedded cluster, have its kubelet evict it, or have the scheduler preempt it. */
export const POST = endpointRoute("simulatorPodAction", async ({ runtime, params }) =>
  Response.json(await runPodAction(simulatorOf(runtime.cluster), params.namespace, params.name, params.action)),
);
