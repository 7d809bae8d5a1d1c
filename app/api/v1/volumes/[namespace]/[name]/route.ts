import { deleteVolume, expandVolume } from "@/lib/sandboxes/volume-actions.ts";
import { actorOf, apiRoute, jsonBody } from "@/lib/server/api-route.ts";
import { getRuntime } from "@/lib/server/runtime.ts";
import { volumeServiceDeps } from "@/lib/server/volume-service.ts";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ namespace: string; name: string }> };

/** Deletes a claim nothing uses (409 naming who uses it otherwise). */
export const DELETE = apiRoute(async (request: Request, context: Context) => {
  const { namespace, name } = await context.params;
  return Response.json(await deleteVolume(await volumeServiceDeps(await getRuntime()), namespace, name, actorOf(request)));
});

/** `{size}`: grows the claim where its StorageClass allows expansion. */
export const PATCH = apiRoute(async (request: Request, context: Context) => {
  const { namespace, name } = await context.params;
  const body = await jsonBody(request);
  return Response.json(await expandVolume(await volumeServiceDeps(await getRuntime()), namespace, name, body, actorOf(request)), { status: 202 });
});
