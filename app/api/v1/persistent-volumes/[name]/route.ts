import { deleteReleasedVolume, setReclaimPolicy } from "@/lib/sandboxes/volume-actions.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { volumeServiceDeps } from "@/lib/server/volume-service.ts";

export const dynamic = "force-dynamic";

/** `{reclaimPolicy}`: keeps a volume after its claim, or lets it go with it, as the caller. */
export const PATCH = endpointRoute("changeReclaimPolicy", async ({ runtime, params, json, actor, kube }) =>
  Response.json(await setReclaimPolicy(await volumeServiceDeps(runtime, kube()), params.name, json, actor)),
);

/** Deletes a Released volume, and the data its Retain policy kept, as the caller. */
export const DELETE = endpointRoute("deletePersistentVolume", async ({ runtime, params, actor, kube }) =>
  Response.json(await deleteReleasedVolume(await volumeServiceDeps(runtime, kube()), params.name, actor)),
);
