import { execInSandbox } from "@/lib/sandboxes/sandbox-actions.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { sandboxServiceDeps } from "@/lib/server/sandbox-service.ts";

export const dynamic = "force-dynamic";

/** `{command: string[], timeoutSeconds?}` → `{exitCode, stdout, stderr}`, run as the caller. */
export const POST = endpointRoute("execInSandbox", async ({ runtime, sandbox, body, actor, kube }) =>
  Response.json(await execInSandbox(await sandboxServiceDeps(runtime, kube()), sandbox.id, body.command, body.timeoutSeconds, actor)),
);
