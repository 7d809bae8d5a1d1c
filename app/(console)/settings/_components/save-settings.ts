import { sendJson, type SendResult } from "@/app/(console)/_components/send-json.ts";
import type { GatewaySettingsChange } from "@/lib/domain/gateway-settings.ts";

export function saveSettings(change: GatewaySettingsChange): Promise<SendResult> {
  return sendJson("PUT", "/api/v1/settings", change);
}
