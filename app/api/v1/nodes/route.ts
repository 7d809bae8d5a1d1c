import { pageRequestSchema } from "@/lib/domain/sandbox-record.ts";
import { pageOfNodes } from "@/lib/sandboxes/describe-nodes.ts";
import { apiRoute, BadRequestError, ClusterUnavailableError } from "@/lib/server/api-route.ts";
import { getRuntime } from "@/lib/server/runtime.ts";

export const dynamic = "force-dynamic";

/** The cluster's nodes by name, each with the sandboxes on it, a page at a time. */
export const GET = apiRoute(async (request: Request) => {
  const page = pageRequestSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!page.success) throw new BadRequestError("invalid-query", "limit must be a whole number from 1 to 500, and cursor one this server handed out");
  const reconciler = (await getRuntime()).reconciler.current();
  if (!reconciler) throw new ClusterUnavailableError("Berth is not watching the cluster yet (it is unreachable or has no agent-sandbox CRDs); see GET /api/health.");
  return Response.json(pageOfNodes(reconciler.nodeViews(), page.data));
});
