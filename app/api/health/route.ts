import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { checkHealth } from "@/lib/server/health.ts";

export const dynamic = "force-dynamic";

/** The status for anyone (probes); what Berth is connected to, and where, only for a signed-in person. */
export const GET = endpointRoute("health", async ({ runtime, caller }) => {
  // Probes that come together share one check, at most a second old: a burst of probes (or a
  // busy event loop) does not multiply the questions to the store and the cluster.
  const health = await checkHealth(runtime, { maxAgeMs: 1_000 });
  return Response.json(caller ? health : { status: health.status }, { status: health.status === "failing" ? 503 : 200, headers: { "Cache-Control": "no-store" } });
});
