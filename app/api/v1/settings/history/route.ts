import { SETTINGS_AUDIT_TARGET } from "@/lib/sandboxes/gateway-settings.ts";
import { endpointRoute } from "@/lib/server/endpoint-route.ts";

export const dynamic = "force-dynamic";

/** Who changed the gateway defaults, what and when: the audit log's entries, newest first. */
export const GET = endpointRoute("settingsHistory", async ({ runtime, query }) => Response.json(await runtime.store.audit.listChanges({ ...query, ...SETTINGS_AUDIT_TARGET })));
