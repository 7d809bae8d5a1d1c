import { BadRequestError } from "@/lib/server/api-problems.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { signInWithToken } from "@/lib/server/sign-in-flow.ts";
import { whoAmI } from "@/lib/server/who-am-i.ts";

export const dynamic = "force-dynamic";

/** Signs in with a Kubernetes bearer token (token mode), checked with TokenReview. */
export const POST = endpointRoute("signInWithToken", async ({ runtime, body }) => {
  if (runtime.config.auth.mode !== "token") throw new BadRequestError("token-sign-in-off", `Signing in with a pasted token is for BERTH_AUTH_MODE=token; this Berth signs people in with ${runtime.config.auth.mode}. Scripts may still send Authorization: Bearer <token>.`);
  const { person, cookie } = await signInWithToken(runtime, body.token);
  const you = await whoAmI(runtime, { person, signedInWith: "token", credential: { kind: "token", token: body.token }, ambient: true });
  return Response.json(you, { headers: { "Set-Cookie": cookie, "Cache-Control": "no-store" } });
});
