import { z } from "zod";
import { callApi } from "./api-client.ts";

/**
 * Every item of a paginated Berth list (`{items, nextCursor}`), following the cursor, each page
 * checked against the item schema. `what` names the list in the error a page shows.
 */
export async function fetchAllPages<Item extends z.ZodType>(path: string, item: Item, what: string, signal?: AbortSignal): Promise<z.infer<Item>[]> {
  const pageSchema = z.object({ items: z.array(item), nextCursor: z.string().nullable() });
  const items: z.infer<Item>[] = [];
  let cursor: string | null = null;
  do {
    const page: z.infer<typeof pageSchema> = await callApi(`${path}?limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, pageSchema, { signal }).catch((error: unknown) => {
      throw error instanceof Error ? new Error(`Listing ${what} failed: ${error.message}`, { cause: error }) : error;
    });
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}
