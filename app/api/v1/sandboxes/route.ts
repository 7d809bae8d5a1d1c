import { pageRequestSchema } from "@/lib/domain/sandbox-record.ts";
import { createSandbox, dryRunCreateSandbox } from "@/lib/sandboxes/create-sandbox.ts";
import { actorOf, apiRoute, BadRequestError, jsonBody } from "@/lib/server/api-route.ts";
import { getRuntime } from "@/lib/server/runtime.ts";
import { sandboxServiceDeps } from "@/lib/server/sandbox-service.ts";

export const dynamic = "force-dynamic";

/** Create a sandbox; `?dryRun=true` renders and validates against the cluster and creates nothing. */
export const POST = apiRoute(async (request: Request) => {
  const deps = await sandboxServiceDeps(await getRuntime());
  const body = await jsonBody(request);
  if (new URL(request.url).searchParams.get("dryRun") === "true") {
    const { rendered } = await dryRunCreateSandbox(deps, body);
    return Response.json({ dryRun: true, manifests: rendered });
  }
  const { record } = await createSandbox(deps, body, actorOf(request));
  return Response.json(record, { status: 201, headers: { Location: `/api/v1/sandboxes/${record.id}` } });
});

/** Live sandboxes, newest first, a page at a time: from memory, or the store while that loads. */
export const GET = apiRoute(async (request: Request) => {
  const query = Object.fromEntries(new URL(request.url).searchParams);
  const page = pageRequestSchema.safeParse(query);
  if (!page.success) throw new BadRequestError("invalid-query", `limit must be a whole number from 1 to 500, and cursor one this server handed out`);
  const { live, store } = await getRuntime();
  return Response.json(live.ready ? live.page(page.data) : await store.sandboxes.listSandboxes(page.data));
});
