import { deleteTemplate, getTemplate, updateTemplate } from "@/lib/sandboxes/templates.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { templateServiceDeps } from "@/lib/server/template-service.ts";

export const dynamic = "force-dynamic";

/** One template with its pool's counts, read as the caller. */
export const GET = endpointRoute("getTemplate", async ({ runtime, params, kube }) =>
  Response.json(await getTemplate(await templateServiceDeps(runtime, kube()), params.namespace, params.name)),
);

/** Replaces a template made through Berth, and its pool to match, as the caller. */
export const PUT = endpointRoute("updateTemplate", async ({ runtime, params, json, actor, kube }) =>
  Response.json(await updateTemplate(await templateServiceDeps(runtime, kube()), params.namespace, params.name, json, actor)),
);

/** Deletes the template and its pool, as the caller. */
export const DELETE = endpointRoute("deleteTemplate", async ({ runtime, params, actor, kube }) =>
  Response.json(await deleteTemplate(await templateServiceDeps(runtime, kube()), params.namespace, params.name, actor)),
);
