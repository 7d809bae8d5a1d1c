import { claimSandbox } from "@/lib/sandboxes/templates.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { templateServiceDeps } from "@/lib/server/template-service.ts";

export const dynamic = "force-dynamic";

/** Claims a sandbox from a template's warm pool, as the caller; the pool's controller answers it. */
export const POST = endpointRoute("claimSandbox", async ({ runtime, params, json, actor, kube }) =>
  Response.json({ ...(await claimSandbox(await templateServiceDeps(runtime, kube()), params.namespace, json, actor)), sandboxId: null, launchType: null }, { status: 202 }),
);
