import { problemDetailsSchema } from "@/lib/server/problem-details.ts";
import type { GatewaySettingsChange } from "@/lib/domain/gateway-settings.ts";

// PUT /api/v1/settings from the browser: ok, or the problem's message and its fields.

export type SaveResult = { ok: true } | { ok: false; message: string; fields: { field: string; message: string }[] };

export async function saveSettings(change: GatewaySettingsChange): Promise<SaveResult> {
  let response: Response;
  try {
    response = await fetch("/api/v1/settings", { method: "PUT", headers: { "Content-Type": "application/json" }, body: JSON.stringify(change) });
  } catch (error) {
    return { ok: false, message: `Berth did not answer (${(error as Error).message}); nothing was saved. Try again.`, fields: [] };
  }
  if (response.ok) return { ok: true };
  const problem = problemDetailsSchema.safeParse(await response.json().catch(() => null));
  if (!problem.success) return { ok: false, message: `Berth answered ${response.status}; nothing was saved.`, fields: [] };
  return { ok: false, message: problem.data.detail, fields: problem.data.errors ?? [] };
}
