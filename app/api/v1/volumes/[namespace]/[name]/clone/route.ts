import { cloneClaim } from "@/lib/sandboxes/volume-snapshots.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { snapshotServiceDeps } from "@/lib/server/volume-service.ts";

export const dynamic = "force-dynamic";

/** `{name?, size?, retain?, via?}`: a copy of the claim in a new claim of its class, made as the caller. */
export const POST = endpointRoute("cloneVolume", async ({ runtime, params, json, actor, kube }) =>
  Response.json(await cloneClaim(await snapshotServiceDeps(runtime, kube()), params.namespace, params.name, json, actor), { status: 201 }),
);
