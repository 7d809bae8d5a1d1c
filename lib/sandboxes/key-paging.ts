import type { Page } from "../domain/sandbox-record.ts";
import { decodeCursor, encodeCursor } from "../store/cursor.ts";

/**
 * One page of a list already sorted by a unique string key (a node's name, a claim's
 * namespace/name): the cursor is the last key handed out, so a page continues correctly even
 * when items before it came or went. `keyShape` is what a valid key looks like.
 */
export function pageAfterKey<Item>(sorted: Item[], keyOf: (item: Item) => string, keyShape: RegExp, request: { limit: number; cursor?: string }): Page<Item> {
  const after = request.cursor ? decodeCursor(request.cursor, keyShape) : null;
  const from = after === null ? 0 : sorted.findIndex((item) => keyOf(item).localeCompare(after) > 0);
  const start = from === -1 ? sorted.length : from;
  const items = sorted.slice(start, start + request.limit);
  const last = items.at(-1);
  return { items, nextCursor: start + request.limit < sorted.length && last !== undefined ? encodeCursor(keyOf(last)) : null };
}
