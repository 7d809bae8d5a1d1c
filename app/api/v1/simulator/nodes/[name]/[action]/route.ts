import { simulatorDrainOptionsSchema } from "@/lib/domain/simulator.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { runNodeAction } from "@/lib/server/simulator-actions.ts";
import { simulatorOf } from "@/lib/server/simulator-route.ts";

export const dynamic = "force-dynamic";

/**
 * Cordon, uncordon, drain (body: {deleteEmptyDirData?, timeoutSeconds?}), lose or restore a node
 * of the embedded cluster. A drain answers when it is done or has given up, with its report.
 */
export const POST = endpointRoute("simulatorNodeAction", async ({ runtime, params, body }) => {
  // Only a drain takes options; the other actions ignore a body.
  const drainOptions = params.action === "drain" && body ? body : simulatorDrainOptionsSchema.parse({});
  return Response.json(await runNodeAction(simulatorOf(runtime.cluster), params.name, params.action, drainOptions));
});
