import { createTemplate } from "@/lib/sandboxes/templates.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { templateServiceDeps, visibleTemplates } from "@/lib/server/template-service.ts";

export const dynamic = "force-dynamic";

/** Templates with their pools, read as Berth, shown of the namespaces where the caller may list templates. */
export const GET = endpointRoute("listTemplates", async ({ runtime, caller, query }) => Response.json({ items: await visibleTemplates(runtime, caller.person, query.namespace) }));

/** Creates the template and its pool as the caller: both or neither. */
export const POST = endpointRoute("createTemplate", async ({ runtime, json, actor, kube }) =>
  Response.json(await createTemplate(await templateServiceDeps(runtime, kube()), json, actor), { status: 201 }),
);
