import { pageRequestSchema } from "@/lib/domain/sandbox-record.ts";
import { pageOfVolumes } from "@/lib/sandboxes/describe-volumes.ts";
import { apiRoute, BadRequestError, ClusterUnavailableError } from "@/lib/server/api-route.ts";
import { getRuntime } from "@/lib/server/runtime.ts";

export const dynamic = "force-dynamic";

/** Every claim Berth knows — workspaces and extra volumes — by namespace and name, a page at a time. */
export const GET = apiRoute(async (request: Request) => {
  const params = new URL(request.url).searchParams;
  const page = pageRequestSchema.safeParse(Object.fromEntries(params));
  if (!page.success) throw new BadRequestError("invalid-query", "limit must be a whole number from 1 to 500, and cursor one this server handed out");
  const reconciler = (await getRuntime()).reconciler.current();
  if (!reconciler) throw new ClusterUnavailableError("Berth is not watching the cluster yet (it is unreachable or has no agent-sandbox CRDs); see GET /api/health.");
  return Response.json(pageOfVolumes(await reconciler.volumes(), { ...page.data, namespace: params.get("namespace") ?? undefined }));
});
