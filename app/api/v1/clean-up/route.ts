import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { cleanUpFor } from "@/lib/server/volume-service.ts";

export const dynamic = "force-dynamic";

/** What storage is left over, as far as the caller may see. */
export const GET = endpointRoute("storageCleanUp", async ({ runtime, caller, kube }) => Response.json(await cleanUpFor(runtime, caller.person, kube())));
