import { setSandboxRunning } from "@/lib/sandboxes/sandbox-actions.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { sandboxServiceDeps } from "@/lib/server/sandbox-service.ts";

export const dynamic = "force-dynamic";

export const POST = endpointRoute("stopSandbox", async ({ runtime, sandbox, actor, kube }) =>
  Response.json(await setSandboxRunning(await sandboxServiceDeps(runtime, kube()), sandbox.id, false, actor), { status: 202 }),
);
