import { getClaim } from "@/lib/sandboxes/templates.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { templateServiceDeps } from "@/lib/server/template-service.ts";

export const dynamic = "force-dynamic";

/** How the claim stands, read as the caller, with Berth's record of its sandbox once Berth follows it. */
export const GET = endpointRoute("getSandboxClaim", async ({ runtime, params, kube }) => {
  const claim = await getClaim(await templateServiceDeps(runtime, kube()), params.namespace, params.name);
  const record = claim.sandbox === null ? undefined : runtime.live.all().find((one) => one.namespace === claim.namespace && one.name === claim.sandbox);
  return Response.json({ ...claim, sandboxId: record?.id ?? null, launchType: record?.details.handout?.launchType ?? null });
});
