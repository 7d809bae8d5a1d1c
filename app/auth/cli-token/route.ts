import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { exchangeCliCode } from "@/lib/server/sign-in-flow.ts";

export const dynamic = "force-dynamic";

/** berth login's last step: the code and the PKCE verifier for a Berth token, with who it is for. */
export const POST = endpointRoute("exchangeCliCode", async ({ runtime, body, requestId }) =>
  Response.json(await exchangeCliCode(runtime, body.code, body.verifier, requestId), { headers: { "Cache-Control": "no-store" } }),
);
