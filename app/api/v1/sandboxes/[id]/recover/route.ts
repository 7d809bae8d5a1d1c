import { recoverSandbox } from "@/lib/sandboxes/sandbox-actions.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { sandboxServiceDeps } from "@/lib/server/sandbox-service.ts";

export const dynamic = "force-dynamic";

/** Replaces a failed or crash-looping pod, as the caller; 409 when there is nothing to recover. */
export const POST = endpointRoute("recoverSandbox", async ({ runtime, sandbox, actor, kube }) =>
  Response.json(await recoverSandbox(await sandboxServiceDeps(runtime, kube()), sandbox.id, actor), { status: 202 }),
);
