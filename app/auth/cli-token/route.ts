import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { exchangeCliCode } from "@/lib/server/sign-in-flow.ts";
import { whoAmI } from "@/lib/server/who-am-i.ts";

export const dynamic = "force-dynamic";

/** berth login's last step: the code and the PKCE verifier for a Berth token, with who it is for. */
export const POST = endpointRoute("exchangeCliCode", async ({ runtime, body, requestId }) => {
  const { session, token, expiresAt } = await exchangeCliCode(runtime, body.code, body.verifier, requestId);
  const you = await whoAmI(runtime, { person: session.person, signedInWith: "oidc", credential: { kind: "impersonate", person: session.person }, ambient: false });
  return Response.json({ token, expiresAt, you }, { headers: { "Cache-Control": "no-store" } });
});
