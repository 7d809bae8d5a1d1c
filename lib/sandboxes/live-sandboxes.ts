import { selectsSpec, type LabelSelector } from "../domain/label-selector.ts";
import type { Page, SandboxRecord } from "../domain/sandbox-record.ts";
import { decodeCursor, encodeCursor, InvalidCursorError } from "../store/cursor.ts";
import type { Store } from "../store/index.ts";

// The live sandboxes, in memory: what GET /api/v1/sandboxes serves, so a list never waits on the
// database or the cluster. Loaded from the store once, then kept by whoever changes a record —
// the reconciler after each reconcile, create and delete as they finish — so a client that was
// just answered 201 finds its sandbox in the next list.

const CURSOR_SHAPE = /^\d{1,15}\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Position = Pick<SandboxRecord, "id" | "createdAt">;

/** Newest first; ties broken by id, as the store orders them. */
function newestFirst(a: Position, b: Position): number {
  return b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

export class LiveSandboxes {
  private readonly records = new Map<string, SandboxRecord>();
  private sorted: SandboxRecord[] | null = null;
  private loaded = false;

  /** False until load() finished: until then, lists go to the store. */
  get ready(): boolean {
    return this.loaded;
  }

  async load(store: Store): Promise<void> {
    for (const record of await store.sandboxes.listAllLive()) this.put(record);
    this.loaded = true;
  }

  /** The record as it now is; a deleted one leaves the live list. */
  put(record: SandboxRecord): void {
    if (record.deletedAt) this.records.delete(record.id);
    else this.records.set(record.id, record);
    this.sorted = null;
  }

  remove(id: string): void {
    if (this.records.delete(id)) this.sorted = null;
  }

  get(id: string): SandboxRecord | undefined {
    return this.records.get(id);
  }

  all(): SandboxRecord[] {
    return [...this.records.values()];
  }

  get size(): number {
    return this.records.size;
  }

  /** Distinct namespaces of the live sandboxes, for asking which of them a person may see. */
  namespaces(): Set<string> {
    return new Set([...this.records.values()].map((record) => record.namespace));
  }

  page(request: { limit: number; cursor?: string; namespace?: string; namespaces?: ReadonlySet<string>; labelSelector?: LabelSelector }): Page<SandboxRecord> {
    this.sorted ??= [...this.records.values()].sort(newestFirst);
    const { namespace, namespaces, labelSelector } = request;
    const all =
      namespace || namespaces || labelSelector?.length
        ? this.sorted.filter((record) => (!namespace || record.namespace === namespace) && (!namespaces || namespaces.has(record.namespace)) && selectsSpec(labelSelector, record.spec))
        : this.sorted;
    const after = request.cursor ? this.after(request.cursor) : null;
    const start = after ? all.findIndex((record) => newestFirst(record, after) > 0) : 0;
    const from = start === -1 ? all.length : start;
    const items = all.slice(from, from + request.limit);
    const more = from + request.limit < all.length;
    const last = items.at(-1);
    return { items, nextCursor: more && last ? encodeCursor(`${last.createdAt.getTime()}.${last.id}`) : null };
  }

  /** The position a cursor names: the record it was made from, which may since have gone. */
  private after(cursor: string): Position {
    const [time, id] = decodeCursor(cursor, CURSOR_SHAPE).split(".") as [string, string];
    if (!Number.isSafeInteger(Number(time))) throw new InvalidCursorError();
    return { id, createdAt: new Date(Number(time)) };
  }
}
