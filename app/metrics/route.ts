import { PROMETHEUS_CONTENT_TYPE } from "@/lib/metrics/prometheus-text.ts";
import { apiRoute } from "@/lib/server/api-route.ts";
import { metricsText } from "@/lib/server/metrics.ts";
import { getRuntime } from "@/lib/server/runtime.ts";

export const dynamic = "force-dynamic";

/** Prometheus text format: sandboxes by phase, disruptions, recoveries, checkpoints, maintenance runs. */
export const GET = apiRoute(async () => new Response(await metricsText(await getRuntime()), { headers: { "Content-Type": PROMETHEUS_CONTENT_TYPE } }));
