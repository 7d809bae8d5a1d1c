import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { checkHealth } from "@/lib/server/health.ts";

export const dynamic = "force-dynamic";

/** The status for anyone (probes); what Berth is connected to, and where, only for a signed-in person. */
export const GET = endpointRoute("health", async ({ runtime, caller }) => {
  const health = await checkHealth(runtime);
  return Response.json(caller ? health : { status: health.status }, { status: health.status === "failing" ? 503 : 200, headers: { "Cache-Control": "no-store" } });
});
