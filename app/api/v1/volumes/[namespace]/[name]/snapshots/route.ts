import { listClaimSnapshots, takeSnapshot } from "@/lib/sandboxes/volume-snapshots.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { snapshotServiceDeps } from "@/lib/server/volume-service.ts";

export const dynamic = "force-dynamic";

/** The claim's snapshots, read as the caller. */
export const GET = endpointRoute("listVolumeSnapshots", async ({ runtime, params, kube }) =>
  Response.json({ items: await listClaimSnapshots(await snapshotServiceDeps(runtime, kube()), params.namespace, params.name) }),
);

/** `{name?}`: a snapshot of the claim, taken as the caller where its class's driver takes them. */
export const POST = endpointRoute("takeVolumeSnapshot", async ({ runtime, params, json, actor, kube }) =>
  Response.json(await takeSnapshot(await snapshotServiceDeps(runtime, kube()), params.namespace, params.name, json, actor), { status: 202 }),
);
