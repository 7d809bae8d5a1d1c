import { listStorageClassViews } from "@/lib/sandboxes/storage-classes.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";

export const dynamic = "force-dynamic";

/**
 * The cluster's storage classes: the default marked, node-pinned or portable, expansion and
 * snapshot support. Read as Berth once the caller may list storage classes: snapshot support is
 * read from the VolumeSnapshotClasses, which people's roles need not grant.
 */
export const GET = endpointRoute("listStorageClasses", async ({ runtime }) => Response.json({ items: await listStorageClassViews(runtime.cluster.connection) }));
