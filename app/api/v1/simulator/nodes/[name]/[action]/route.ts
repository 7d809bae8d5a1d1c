import { simulatorDrainOptionsSchema, simulatorNodeActionSchema, simulatorObjectNameSchema } from "@/lib/domain/simulator.ts";
import { getRuntime } from "@/lib/server/runtime.ts";
import { runNodeAction } from "@/lib/server/simulator-actions.ts";
import { optionalBody, pathParameter, simulatorOf, simulatorRoute } from "@/lib/server/simulator-route.ts";

export const dynamic = "force-dynamic";

/**
 * Cordon, uncordon, drain (body: {deleteEmptyDirData?, timeoutSeconds?}), lose or restore a node
 * of the embedded cluster. A drain answers when it is done or has given up, with its report.
 */
export const POST = simulatorRoute(async (request: Request, context: { params: Promise<{ name: string; action: string }> }) => {
  const simulator = simulatorOf((await getRuntime()).cluster);
  const params = await context.params;
  const action = pathParameter(params.action, simulatorNodeActionSchema, "invalid-action");
  const node = pathParameter(params.name, simulatorObjectNameSchema, "invalid-name");
  // Only a drain takes options; the other actions ignore a body.
  const drainOptions = action === "drain" ? await optionalBody(request, simulatorDrainOptionsSchema) : simulatorDrainOptionsSchema.parse({});
  return Response.json(await runNodeAction(simulator, node, action, drainOptions));
});
