import { restoreSnapshot } from "@/lib/sandboxes/volume-snapshots.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { snapshotServiceDeps } from "@/lib/server/volume-service.ts";

export const dynamic = "force-dynamic";

/** `{name, size?, retain?}`: a new claim from the snapshot, made as the caller. */
export const POST = endpointRoute("restoreVolumeSnapshot", async ({ runtime, params, json, actor, kube }) =>
  Response.json(await restoreSnapshot(await snapshotServiceDeps(runtime, kube()), params.namespace, params.name, params.snapshot, json, actor), { status: 201 }),
);
