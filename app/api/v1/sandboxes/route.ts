import { createSandbox, dryRunCreateSandbox } from "@/lib/sandboxes/create-sandbox.ts";
import { withSecretValuesHidden } from "@/lib/render/render-sandbox.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { ifNoneMatch } from "@/lib/server/conditional-requests.ts";
import { sandboxServiceDeps } from "@/lib/server/sandbox-service.ts";
import { namespacesWithVisibleSandboxes } from "@/lib/server/visibility.ts";

export const dynamic = "force-dynamic";

/** Create a sandbox, as the caller; `?dryRun=true` renders and validates against the cluster and creates nothing. */
export const POST = endpointRoute("createSandbox", async ({ runtime, query, json, actor, kube }) => {
  const deps = await sandboxServiceDeps(runtime, kube());
  if (query.dryRun === "true") {
    const { rendered } = await dryRunCreateSandbox(deps, json);
    return Response.json({ dryRun: true, manifests: withSecretValuesHidden(rendered) });
  }
  const { record } = await createSandbox(deps, json, actor);
  return Response.json(record, { status: 201, headers: { Location: `/api/v1/sandboxes/${record.id}` } });
});

/**
 * Live sandboxes the caller may see, newest first, a page at a time: from memory (each record's
 * JSON made once per change, the page's ETag naming its record versions, so an unchanged page is
 * a 304), or from the store while memory loads.
 */
export const GET = endpointRoute("listSandboxes", async ({ request, runtime, caller, query }) => {
  const { live, store } = runtime;
  const namespaces = await namespacesWithVisibleSandboxes(runtime, caller.person, live.ready ? live.namespaces() : await store.sandboxes.liveNamespaces());
  if (!live.ready) return Response.json(await store.sandboxes.listSandboxes({ ...query, namespaces }));
  const { body, etag } = live.wirePage({ ...query, namespaces });
  // Revalidated on every use: the page is the person's and changes with the cluster.
  const headers = { ETag: etag, "Cache-Control": "private, no-cache" };
  if (ifNoneMatch(request.headers, etag)) return new Response(null, { status: 304, headers });
  return new Response(body, { headers: { ...headers, "Content-Type": "application/json" } });
});
