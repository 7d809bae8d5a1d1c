import { pageOfVolumes } from "@/lib/sandboxes/describe-volumes.ts";
import { createVolume } from "@/lib/sandboxes/volume-actions.ts";
import { ClusterUnavailableError } from "@/lib/server/api-problems.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { namespacesWithVisibleClaims } from "@/lib/server/visibility.ts";
import { volumeCreationDeps } from "@/lib/server/volume-service.ts";

export const dynamic = "force-dynamic";

/** The claims Berth knows — workspaces and extra volumes — that the caller may list, by namespace and name, a page at a time, with how full each mounted one is. */
export const GET = endpointRoute("listVolumes", async ({ runtime, caller, query }) => {
  const reconciler = runtime.reconciler.current();
  if (!reconciler) throw new ClusterUnavailableError("Berth is not watching the cluster yet (it is unreachable or has no agent-sandbox CRDs); see GET /api/health.");
  const volumes = await reconciler.volumes();
  const visible = await namespacesWithVisibleClaims(runtime, caller.person, volumes.map((volume) => volume.namespace));
  const page = pageOfVolumes(volumes.filter((volume) => visible.has(volume.namespace)), query);
  return Response.json({ ...page, items: await runtime.volumeUsage.withUsage(page.items) });
});

/** A claim for no sandbox yet — empty, restored from a snapshot, or cloned — made as the caller. */
export const POST = endpointRoute("createVolume", async ({ runtime, json, actor, kube }) =>
  Response.json(await createVolume(await volumeCreationDeps(runtime, kube()), json, actor), { status: 201 }),
);
