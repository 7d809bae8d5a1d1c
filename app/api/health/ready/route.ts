import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { answerHealth } from "@/lib/server/health.ts";

export const dynamic = "force-dynamic";

/** The readiness probe: 503 while the store fails or the cluster is unreachable or serves no Sandbox API. */
export const GET = endpointRoute("readiness", answerHealth("ready"));
