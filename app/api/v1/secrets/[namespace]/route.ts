import { listSecretNames } from "@/lib/kube/secret-resources.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";

export const dynamic = "force-dynamic";

/** Names and keys of the namespace's Secrets, listed as the caller: for the create form's "from a Secret". */
export const GET = endpointRoute("listSecretNames", async ({ params, kube }) => Response.json({ items: await listSecretNames(kube(), params.namespace) }));
