import { endpointRoute } from "@/lib/server/endpoint-route.ts";
import { signOut } from "@/lib/server/sign-in-flow.ts";

export const dynamic = "force-dynamic";

/** Ends the session: the cookie is cleared, and the person is back at the sign-in page. */
export const POST = endpointRoute("signOut", async ({ runtime }) => signOut(runtime));
