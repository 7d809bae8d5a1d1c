import { changeGatewaySettings, gatewaySettings } from "@/lib/sandboxes/gateway-settings.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";

export const dynamic = "force-dynamic";

/** The gateway defaults in effect, each with where it came from. */
export const GET = endpointRoute("getSettings", async ({ runtime }) => Response.json({ items: await gatewaySettings(runtime) }));

/** Changes (or resets) gateway defaults; new sandboxes get them at once. Audited. */
export const PUT = endpointRoute("changeSettings", async ({ runtime, json, actor }) => Response.json({ items: await changeGatewaySettings(runtime, json, actor) }));
