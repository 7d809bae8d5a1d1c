import { createHash, randomUUID } from "node:crypto";
import { selectsSpec, type LabelSelector } from "../domain/label-selector.ts";
import type { Page, SandboxRecord } from "../domain/sandbox-record.ts";
import { decodeCursor, encodeCursor, InvalidCursorError } from "../store/cursor.ts";
import type { Store } from "../store/index.ts";

// The live sandboxes, in memory: what GET /api/v1/sandboxes serves, so a list never waits on the
// database or the cluster. Loaded from the store once, then kept by whoever changes a record —
// the reconciler after each reconcile, create and delete as they finish, and (following the
// store) every record this process writes — so a client that was just answered 201 finds its
// sandbox in the next list, and the reconciler need not read again what the list can vouch for.
//
// Each record's wire form (its JSON) is made once per change, on first demand, and pages are
// put together from those: a thousand sandboxes listed by a hundred tabs are serialized a
// thousand times, not a hundred thousand. Every change gets a revision, unique in this process,
// so a page's ETag names exactly the record versions it holds.

const CURSOR_SHAPE = /^\d{1,15}\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Position = Pick<SandboxRecord, "id" | "createdAt">;

/** Newest first; ties broken by id, as the store orders them. */
function newestFirst(a: Position, b: Position): number {
  return b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

const nameKey = (record: Pick<SandboxRecord, "namespace" | "name">) => `${record.namespace}/${record.name}`;

/** A record as held: its revision here, and its JSON once asked for. */
interface Held {
  record: SandboxRecord;
  revision: number;
  wire?: string;
}

export interface PageRequest {
  limit: number;
  cursor?: string;
  namespace?: string;
  namespaces?: ReadonlySet<string>;
  labelSelector?: LabelSelector;
}

/** A page as the API sends it (the JSON of a Page<SandboxRecord>), and a validator that changes whenever any of its bytes would. */
export interface WirePage {
  body: string;
  etag: string;
  /** The cursor `body` carries, for a caller going on to the next page. */
  nextCursor: string | null;
}

export class LiveSandboxes {
  private readonly records = new Map<string, Held>();
  /** Each live record's id by "namespace/name", for the watches, which know objects by name. */
  private readonly idsByName = new Map<string, string>();
  /**
   * The ids, newest first. A status change keeps a record's place (its creation time does not
   * change), so only a sandbox coming or going sorts them again: during a storm, pages of 10,000
   * are not sorted once per request.
   */
  private order: string[] | null = null;
  /** How many live records each namespace holds. */
  private readonly perNamespace = new Map<string, number>();
  private loaded = false;
  private revision = 0;
  /** Revisions start again with the process: the ETags of an earlier one must not match. */
  private readonly epoch = randomUUID();
  /** Whether this list follows the store's word of written records (follow()): else refresh reads every record asked. */
  private following = false;
  /** Records whose last change came as word alone (another replica's write, a dropped connection): refresh reads them. */
  private readonly unread = new Set<string>();

  /** False until load() finished: until then, lists go to the store. */
  get ready(): boolean {
    return this.loaded;
  }

  async load(store: { sandboxes: Pick<Store["sandboxes"], "listAllLive"> }): Promise<void> {
    for (const record of await store.sandboxes.listAllLive()) this.put(record);
    this.loaded = true;
  }

  /**
   * The record as it now is; a deleted one leaves the live list. One older than the record held
   * is ignored: two readers of the store (a reconcile, the timeline's refresh) may finish in
   * either order, and the older answer must not win.
   */
  put(record: SandboxRecord): void {
    const held = this.records.get(record.id);
    if (held && held.record.updatedAt.getTime() > record.updatedAt.getTime()) return;
    this.hold(record);
  }

  private hold(record: SandboxRecord): void {
    if (record.deletedAt) {
      this.remove(record.id);
      return;
    }
    const previous = this.records.get(record.id)?.record;
    this.records.set(record.id, { record, revision: ++this.revision });
    this.idsByName.set(nameKey(record), record.id);
    if (previous && previous.namespace === record.namespace && previous.createdAt.getTime() === record.createdAt.getTime()) return;
    if (previous) this.uncount(previous.namespace);
    this.perNamespace.set(record.namespace, (this.perNamespace.get(record.namespace) ?? 0) + 1);
    this.order = null;
  }

  private uncount(namespace: string): void {
    const left = (this.perNamespace.get(namespace) ?? 0) - 1;
    if (left > 0) this.perNamespace.set(namespace, left);
    else this.perNamespace.delete(namespace);
  }

  /**
   * Reads these records afresh from the store: what the timeline feed does before it publishes
   * events about them, so that the list (and what a stream sends with an event) is at least as
   * new as the event, on every replica. Before load() it does nothing: load reads everything.
   */
  async refresh(sandboxes: Pick<Store["sandboxes"], "getSandboxes">, ids: Iterable<string>): Promise<void> {
    if (!this.loaded) return;
    // Following the store, what this process wrote is held as it was written: only the rest is read.
    const wanted = new Set([...ids].filter((id) => !this.following || this.unread.has(id) || !this.records.has(id)));
    if (wanted.size === 0) return;
    // Taken off before the read, so that word coming while it runs marks them again.
    for (const id of wanted) this.unread.delete(id);
    let found: SandboxRecord[];
    try {
      found = await sandboxes.getSandboxes([...wanted]);
    } catch (error) {
      for (const id of wanted) this.unread.add(id);
      throw error;
    }
    for (const record of found) {
      this.put(record);
      wanted.delete(record.id);
    }
    // A record gone from the store never became a sandbox (its create was undone).
    for (const id of wanted) this.remove(id);
  }

  /**
   * Follows the store's word of written records, so that refresh need not read what this process
   * wrote: its own writes come with the record (held at once); word of a write without one, from
   * another replica or `null` after a dropped connection, marks records for refresh to read.
   * Returns the way to stop.
   */
  follow(sandboxes: Pick<Store["sandboxes"], "onChanged" | "onWritten">): () => void {
    this.following = true;
    // Word of a write comes before its record does (onWritten), so a record of this process's is never left marked.
    const stopHearing = sandboxes.onChanged((id) => {
      if (id !== null) this.unread.add(id);
      else for (const held of this.records.keys()) this.unread.add(held);
    });
    // This process's writes come in the order they were committed: the last one is the record.
    const stopTaking = sandboxes.onWritten((record) => {
      this.hold(record);
      this.unread.delete(record.id);
    });
    return () => {
      this.following = false;
      stopHearing();
      stopTaking();
    };
  }

  remove(id: string): void {
    const held = this.records.get(id);
    if (!held) return;
    this.records.delete(id);
    if (this.idsByName.get(nameKey(held.record)) === id) this.idsByName.delete(nameKey(held.record));
    this.uncount(held.record.namespace);
    this.order = null;
  }

  get(id: string): SandboxRecord | undefined {
    return this.records.get(id)?.record;
  }

  /**
   * The live record as the store has it, when this list can vouch for that: it follows the store,
   * holds the record, and no write of it has come as word alone since. Else undefined: read the store.
   */
  current(id: string): SandboxRecord | undefined {
    return this.following && this.loaded && !this.unread.has(id) ? this.records.get(id)?.record : undefined;
  }

  /** The id of the live record of that name, if this list holds it. */
  idOf(namespace: string, name: string): string | undefined {
    return this.idsByName.get(nameKey({ namespace, name }));
  }

  /** The record's JSON, as a list or an event sends it; undefined when it is not live. */
  wire(id: string): string | undefined {
    const held = this.records.get(id);
    return held ? wireOf(held) : undefined;
  }

  all(): SandboxRecord[] {
    return [...this.records.values()].map((held) => held.record);
  }

  get size(): number {
    return this.records.size;
  }

  /** Distinct namespaces of the live sandboxes, for asking which of them a person may see. */
  namespaces(): Set<string> {
    return new Set(this.perNamespace.keys());
  }

  page(request: PageRequest): Page<SandboxRecord> {
    const { held, nextCursor } = this.select(request);
    return { items: held.map((one) => one.record), nextCursor };
  }

  /** The page in its wire form, put together from each record's JSON. */
  wirePage(request: PageRequest): WirePage {
    const { held, nextCursor } = this.select(request);
    const body = `{"items":[${held.map(wireOf).join(",")}],"nextCursor":${JSON.stringify(nextCursor)}}`;
    const versions = createHash("sha1").update(this.epoch).update(held.map((one) => one.revision).join(",")).update(`|${nextCursor ?? ""}`);
    return { body, etag: `W/"${versions.digest("base64url")}"`, nextCursor };
  }

  private select(request: PageRequest): { held: Held[]; nextCursor: string | null } {
    const order = (this.order ??= [...this.records.values()].sort((a, b) => newestFirst(a.record, b.record)).map((held) => held.record.id));
    const { namespace, namespaces, labelSelector } = request;
    // Most callers may see every namespace there is: their pages need no pass over every record.
    const all =
      namespace || labelSelector?.length || (namespaces && !this.allNamespacesIn(namespaces))
        ? order.filter((id) => {
            const { record } = this.records.get(id)!;
            return (!namespace || record.namespace === namespace) && (!namespaces || namespaces.has(record.namespace)) && selectsSpec(labelSelector, record.spec);
          })
        : order;
    const from = request.cursor ? this.firstAfter(all, this.after(request.cursor)) : 0;
    const held = all.slice(from, from + request.limit).map((id) => this.records.get(id)!);
    const more = from + request.limit < all.length;
    const last = held.at(-1)?.record;
    return { held, nextCursor: more && last ? encodeCursor(`${last.createdAt.getTime()}.${last.id}`) : null };
  }

  private allNamespacesIn(namespaces: ReadonlySet<string>): boolean {
    for (const namespace of this.perNamespace.keys()) if (!namespaces.has(namespace)) return false;
    return true;
  }

  /** Where the records after a position begin in ids sorted newest first (their length if none do): a binary search. */
  private firstAfter(ids: readonly string[], position: Position): number {
    let low = 0;
    let high = ids.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (newestFirst(this.records.get(ids[middle]!)!.record, position) > 0) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  /** The position a cursor names: the record it was made from, which may since have gone. */
  private after(cursor: string): Position {
    const [time, id] = decodeCursor(cursor, CURSOR_SHAPE).split(".") as [string, string];
    if (!Number.isSafeInteger(Number(time))) throw new InvalidCursorError();
    return { id, createdAt: new Date(Number(time)) };
  }
}

function wireOf(held: Held): string {
  return (held.wire ??= JSON.stringify(held.record));
}
