import { deleteSandbox } from "@/lib/sandboxes/sandbox-actions.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { sandboxServiceDeps } from "@/lib/server/sandbox-service.ts";

export const dynamic = "force-dynamic";

export const GET = endpointRoute("getSandbox", async ({ sandbox }) => Response.json(sandbox));

/** Deletes the sandbox, as the caller; says which claims were removed and which were kept. */
export const DELETE = endpointRoute("deleteSandbox", async ({ runtime, sandbox, actor, kube }) =>
  Response.json(await deleteSandbox(await sandboxServiceDeps(runtime, kube()), sandbox.id, actor)),
);
