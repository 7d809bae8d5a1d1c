import { deleteVolume, expandVolume } from "@/lib/sandboxes/volume-actions.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { volumeServiceDeps } from "@/lib/server/volume-service.ts";

export const dynamic = "force-dynamic";

/** Deletes a claim nothing uses, as the caller (409 naming who uses it otherwise). */
export const DELETE = endpointRoute("deleteVolume", async ({ runtime, params, actor, kube }) =>
  Response.json(await deleteVolume(await volumeServiceDeps(runtime, kube()), params.namespace, params.name, actor)),
);

/** `{size}`: grows the claim, as the caller, where its StorageClass allows expansion. */
export const PATCH = endpointRoute("expandVolume", async ({ runtime, params, json, actor, kube }) =>
  Response.json(await expandVolume(await volumeServiceDeps(runtime, kube()), params.namespace, params.name, json, actor), { status: 202 }),
);
