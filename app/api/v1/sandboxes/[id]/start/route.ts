import { setSandboxRunning } from "@/lib/sandboxes/sandbox-actions.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { sandboxServiceDeps } from "@/lib/server/sandbox-service.ts";

export const dynamic = "force-dynamic";

export const POST = endpointRoute("startSandbox", async ({ runtime, sandbox, actor, kube }) =>
  Response.json(await setSandboxRunning(await sandboxServiceDeps(runtime, kube()), sandbox.id, true, actor), { status: 202 }),
);
