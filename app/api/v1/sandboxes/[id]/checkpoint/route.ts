import { checkpointSandbox } from "@/lib/sandboxes/checkpoint-sandbox.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { sandboxServiceDeps } from "@/lib/server/sandbox-service.ts";

export const dynamic = "force-dynamic";

/**
 * Runs a checkpoint now, as the caller, and answers with how it went (Succeeded, Failed or
 * TimedOut — a result, not an error); 409 when the sandbox has no running pod or is already
 * checkpointing. Progress is on the timeline (GET /api/v1/events) while it runs.
 */
export const POST = endpointRoute("checkpointSandbox", async ({ runtime, sandbox, actor, kube }) =>
  Response.json(await checkpointSandbox(await sandboxServiceDeps(runtime, kube()), sandbox.id, "Manual", actor)),
);
