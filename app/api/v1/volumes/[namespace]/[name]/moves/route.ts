import { listVolumeMoves, startVolumeMove } from "@/lib/sandboxes/volume-move.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { volumeMoveDeps } from "@/lib/server/volume-service.ts";

export const dynamic = "force-dynamic";

/** The claim's moves to another class: under way, and the last few finished. */
export const GET = endpointRoute("listVolumeMoves", async ({ runtime, params, kube }) =>
  Response.json({ items: await listVolumeMoves(await volumeMoveDeps(runtime, kube()), params.namespace, params.name) }),
);

/** `{storageClassName, name?, size?}`: the claim's files copied into a new claim of a portable class, as the caller. */
export const POST = endpointRoute("moveVolume", async ({ runtime, params, json, actor, kube }) =>
  Response.json(await startVolumeMove(await volumeMoveDeps(runtime, kube()), params.namespace, params.name, json, actor), { status: 202 }),
);
