import { api, send, type SendResult } from "@/app/(console)/_components/api-client.ts";
import type { GatewaySettingsChange } from "@/lib/domain/gateway-settings.ts";

export function saveSettings(change: GatewaySettingsChange): Promise<SendResult> {
  return send(() => api.changeSettings({ body: change }));
}
