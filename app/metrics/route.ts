import { PROMETHEUS_CONTENT_TYPE } from "@/lib/metrics/prometheus-text.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { metricsText } from "@/lib/server/metrics.ts";

export const dynamic = "force-dynamic";

/**
 * Prometheus text format: sandboxes by phase, disruptions, recoveries, checkpoints, maintenance
 * runs. Authorized as the API server authorizes its own /metrics (get on the non-resource URL),
 * so Prometheus scrapes it with a service-account token.
 */
export const GET = endpointRoute("metrics", async ({ runtime }) => new Response(await metricsText(runtime), { headers: { "Content-Type": PROMETHEUS_CONTENT_TYPE } }));
