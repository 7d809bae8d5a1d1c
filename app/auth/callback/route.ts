import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { completeSignIn } from "@/lib/server/sign-in-flow.ts";

export const dynamic = "force-dynamic";

/** The provider's redirect back: the code exchanged, the session cookie set. */
export const GET = endpointRoute("signInCallback", async ({ runtime, request }) => completeSignIn(runtime, request));
