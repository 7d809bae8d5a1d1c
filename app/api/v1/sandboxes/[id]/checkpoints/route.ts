import { endpointRoute } from "@/lib/server/endpoint-route.ts";

export const dynamic = "force-dynamic";

/** The sandbox's checkpoints, newest first. */
export const GET = endpointRoute("listCheckpoints", async ({ runtime, sandbox }) => Response.json({ items: await runtime.store.checkpoints.listCheckpoints(sandbox.id) }));
