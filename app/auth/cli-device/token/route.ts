import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { pollCliDeviceSignIn } from "@/lib/server/sign-in-flow.ts";

export const dynamic = "force-dynamic";

/** berth login --device, asking every few seconds: 202 until the person has entered the code, then a Berth token. */
export const POST = endpointRoute("pollCliDeviceSignIn", async ({ runtime, body, requestId }) => {
  const answer = await pollCliDeviceSignIn(runtime, body.deviceCode, requestId);
  return Response.json(answer, { status: "pending" in answer ? 202 : 200, headers: { "Cache-Control": "no-store" } });
});
