import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { answerHealth } from "@/lib/server/health.ts";

export const dynamic = "force-dynamic";

/** The liveness probe: 200 while the process answers. */
export const GET = endpointRoute("liveness", answerHealth("live"));
