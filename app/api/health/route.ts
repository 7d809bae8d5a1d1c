import { healthRoute } from "@/lib/server/health-route.ts";

export const dynamic = "force-dynamic";

/** Whether this server can serve, and — to a signed-in person — what it is connected to. */
export const GET = healthRoute("health", "report");
