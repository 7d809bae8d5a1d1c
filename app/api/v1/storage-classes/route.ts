import { listStorageClassViews } from "@/lib/sandboxes/storage-classes.ts";
import { apiRoute } from "@/lib/server/api-route.ts";
import { getRuntime } from "@/lib/server/runtime.ts";

export const dynamic = "force-dynamic";

/** The cluster's storage classes: the default marked, node-pinned or portable, expansion and snapshot support. */
export const GET = apiRoute(async () => Response.json({ items: await listStorageClassViews((await getRuntime()).cluster.connection) }));
