import { healthRoute } from "@/lib/server/health-route.ts";

export const dynamic = "force-dynamic";

/** The readiness probe: 503 while the store fails or the cluster is unreachable or serves no Sandbox API. */
export const GET = healthRoute("readiness", "ready");
