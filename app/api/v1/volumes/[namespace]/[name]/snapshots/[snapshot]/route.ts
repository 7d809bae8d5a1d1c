import { deleteSnapshot } from "@/lib/sandboxes/volume-snapshots.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { snapshotServiceDeps } from "@/lib/server/volume-service.ts";

export const dynamic = "force-dynamic";

/** Deletes one of the claim's snapshots, as the caller. */
export const DELETE = endpointRoute("deleteVolumeSnapshot", async ({ runtime, params, actor, kube }) =>
  Response.json(await deleteSnapshot(await snapshotServiceDeps(runtime, kube()), params.namespace, params.name, params.snapshot, actor)),
);
