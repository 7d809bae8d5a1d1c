import { api, everyPage } from "@/app/(console)/_components/api-client.ts";
import type { Volume } from "@/lib/domain/volume.ts";

// The claims Berth knows, as GET /api/v1/volumes sends them, every page.

export function fetchVolumes(signal?: AbortSignal): Promise<Volume[]> {
  return everyPage("volumes", (query) => api.listVolumes({ query, signal }));
}

/** What each ownership mode means for the claim's life, in a person's words. */
export const OWNERSHIP_LIFECYCLE: Record<string, string> = {
  template: "Sandbox-owned: made by the controller, deleted with the sandbox",
  retain: "Retained: kept when the sandbox is deleted, for the next one",
  delete: "Deleted with the sandbox",
  existing: "Bring-your-own: never touched by Berth",
};
