import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { whoAmI } from "@/lib/server/who-am-i.ts";

export const dynamic = "force-dynamic";

/** Who is signed in, and what Kubernetes lets them do through Berth. */
export const GET = endpointRoute("whoAmI", async ({ runtime, caller }) => Response.json(await whoAmI(runtime, caller)));
