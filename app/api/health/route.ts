import { checkHealth } from "@/lib/server/health.ts";
import { getRuntime } from "@/lib/server/runtime.ts";

export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  const health = await checkHealth(await getRuntime());
  return Response.json(health, {
    status: health.status === "failing" ? 503 : 200,
    headers: { "Cache-Control": "no-store" },
  });
}
