import { listVolumeFiles } from "@/lib/sandboxes/volume-files.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { volumeFilesDeps } from "@/lib/server/volume-service.ts";

export const dynamic = "force-dynamic";

/** A directory of the claim, read by exec as the caller in the pod that mounts it or its helper. */
export const GET = endpointRoute("listVolumeFiles", async ({ runtime, params, query, kube }) =>
  Response.json(await listVolumeFiles(await volumeFilesDeps(runtime, kube()), params.namespace, params.name, query.path)),
);
