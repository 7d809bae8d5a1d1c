import { pageRequestSchema } from "@/lib/domain/sandbox-record.ts";
import { SETTINGS_AUDIT_TARGET } from "@/lib/sandboxes/gateway-settings.ts";
import { apiRoute, BadRequestError } from "@/lib/server/api-route.ts";
import { getRuntime } from "@/lib/server/runtime.ts";

export const dynamic = "force-dynamic";

/** Who changed the gateway defaults, what and when: the audit log's entries, newest first. */
export const GET = apiRoute(async (request: Request) => {
  const page = pageRequestSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!page.success) throw new BadRequestError("invalid-query", "limit must be a whole number from 1 to 500, and cursor one this server handed out");
  return Response.json(await (await getRuntime()).store.audit.listChanges({ ...page.data, ...SETTINGS_AUDIT_TARGET }));
});
