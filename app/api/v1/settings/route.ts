import { changeGatewaySettings, gatewaySettings } from "@/lib/sandboxes/gateway-settings.ts";
import { actorOf, apiRoute, jsonBody } from "@/lib/server/api-route.ts";
import { getRuntime } from "@/lib/server/runtime.ts";

export const dynamic = "force-dynamic";

/** The gateway defaults in effect, each with where it came from. */
export const GET = apiRoute(async () => Response.json({ items: await gatewaySettings(await getRuntime()) }));

/** Changes (or resets) gateway defaults; new sandboxes get them at once. Audited. */
export const PUT = apiRoute(async (request: Request) =>
  Response.json({ items: await changeGatewaySettings(await getRuntime(), await jsonBody(request), actorOf(request)) }),
);
