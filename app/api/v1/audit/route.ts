import { endpointRoute } from "@/lib/server/endpoint-route.ts";

export const dynamic = "force-dynamic";

/** Every write made or refused through Berth, newest first, narrowed by the filters given. */
export const GET = endpointRoute("audit", async ({ runtime, query }) => Response.json(await runtime.store.audit.listChanges(query)));
