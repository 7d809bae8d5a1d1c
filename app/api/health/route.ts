import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { answerHealth } from "@/lib/server/health.ts";

export const dynamic = "force-dynamic";

/** Whether this server can serve, and — to a signed-in person — what it is connected to. */
export const GET = endpointRoute("health", answerHealth("report"));
