import { startVolumeReader } from "@/lib/sandboxes/volume-files.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { volumeFilesDeps } from "@/lib/server/volume-service.ts";

export const dynamic = "force-dynamic";

/** A way in to the claim's files: its mounting pod, a helper with time left, or a new helper made as the caller. */
export const POST = endpointRoute("startVolumeReader", async ({ runtime, params, actor, kube }) =>
  Response.json(await startVolumeReader(await volumeFilesDeps(runtime, kube()), params.namespace, params.name, actor)),
);
