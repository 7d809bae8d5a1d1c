import { simulatorObjectNameSchema, simulatorPodActionSchema } from "@/lib/domain/simulator.ts";
import { getRuntime } from "@/lib/server/runtime.ts";
import { runPodAction } from "@/lib/server/simulator-actions.ts";
import { pathParameter, simulatorOf, simulatorRoute } from "@/lib/server/simulator-route.ts";

export const dynamic = "force-dynamic";

/** Delete a pod of the embedded cluster, have its kubelet evict it, or have the scheduler preempt it. */
export const POST = simulatorRoute(async (_request: Request, context: { params: Promise<{ namespace: string; name: string; action: string }> }) => {
  const simulator = simulatorOf((await getRuntime()).cluster);
  const params = await context.params;
  const action = pathParameter(params.action, simulatorPodActionSchema, "invalid-action");
  const namespace = pathParameter(params.namespace, simulatorObjectNameSchema, "invalid-namespace");
  const pod = pathParameter(params.name, simulatorObjectNameSchema, "invalid-name");
  return Response.json(await runPodAction(simulator, namespace, pod, action));
});
