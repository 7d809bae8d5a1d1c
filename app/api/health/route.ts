import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { checkHealth } from "@/lib/server/health.ts";

export const dynamic = "force-dynamic";

export const GET = endpointRoute("health", async ({ runtime }) => {
  const health = await checkHealth(runtime);
  return Response.json(health, { status: health.status === "failing" ? 503 : 200, headers: { "Cache-Control": "no-store" } });
});
