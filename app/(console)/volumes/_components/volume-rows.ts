import { z } from "zod";
import { volumeSchema, type Volume } from "@/lib/domain/volume.ts";

// The claims Berth knows, as GET /api/v1/volumes sends them, every page.

const pageSchema = z.object({ items: z.array(volumeSchema), nextCursor: z.string().nullable() });

export async function fetchVolumes(signal?: AbortSignal): Promise<Volume[]> {
  const volumes: Volume[] = [];
  let cursor: string | null = null;
  do {
    const response = await fetch(`/api/v1/volumes?limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { signal });
    if (!response.ok) throw new Error(`Listing volumes failed: HTTP ${response.status}`);
    const page = pageSchema.parse(await response.json());
    volumes.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return volumes;
}

/** What each ownership mode means for the claim's life, in a person's words. */
export const OWNERSHIP_LIFECYCLE: Record<string, string> = {
  template: "Sandbox-owned: made by the controller, deleted with the sandbox",
  retain: "Retained: kept when the sandbox is deleted, for the next one",
  delete: "Deleted with the sandbox",
  existing: "Bring-your-own: never touched by Berth",
};
