import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { beginSignIn } from "@/lib/server/sign-in-flow.ts";

export const dynamic = "force-dynamic";

/** To the OpenID provider (authorization code with PKCE); `?person=` hints who, for the demo provider; `?cli…` for berth login. */
export const GET = endpointRoute("signIn", async ({ runtime, request, query }) => beginSignIn(runtime, request, query));
