import { apiRoute } from "@/lib/server/api-route.ts";
import { getRuntime } from "@/lib/server/runtime.ts";
import { SandboxNotFoundError } from "@/lib/store/index.ts";

export const dynamic = "force-dynamic";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const GET = apiRoute(async (_request: Request, context: { params: Promise<{ id: string }> }) => {
  const { id } = await context.params;
  const { store } = await getRuntime();
  const record = UUID.test(id) ? await store.sandboxes.getSandbox(id) : null;
  if (!record) throw new SandboxNotFoundError(id);
  return Response.json(record);
});
