import { setReclaimPolicy } from "@/lib/sandboxes/volume-actions.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { volumeServiceDeps } from "@/lib/server/volume-service.ts";

export const dynamic = "force-dynamic";

/** `{reclaimPolicy}`: keeps a volume after its claim, or lets it go with it, as the caller. */
export const PATCH = endpointRoute("changeReclaimPolicy", async ({ runtime, params, json, actor, kube }) =>
  Response.json(await setReclaimPolicy(await volumeServiceDeps(runtime, kube()), params.name, json, actor)),
);
