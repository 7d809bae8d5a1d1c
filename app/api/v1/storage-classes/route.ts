import { listStorageClassViews } from "@/lib/sandboxes/storage-classes.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";

export const dynamic = "force-dynamic";

/** The cluster's storage classes, read as the caller: the default marked, node-pinned or portable, expansion and snapshot support. */
export const GET = endpointRoute("listStorageClasses", async ({ kube }) => Response.json({ items: await listStorageClassViews(kube()) }));
