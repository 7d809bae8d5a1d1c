import { healthRoute } from "@/lib/server/health-route.ts";

export const dynamic = "force-dynamic";

/** The liveness probe: 200 while the process answers. */
export const GET = healthRoute("liveness", "live");
