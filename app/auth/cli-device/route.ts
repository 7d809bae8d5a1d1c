import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { beginCliDeviceSignIn } from "@/lib/server/sign-in-flow.ts";

export const dynamic = "force-dynamic";

/** berth login --device's first step: the code for the person to enter at the provider, and the handle to ask with. */
export const POST = endpointRoute("beginCliDeviceSignIn", async ({ runtime }) => Response.json(await beginCliDeviceSignIn(runtime), { headers: { "Cache-Control": "no-store" } }));
