import type { IncomingMessage, ServerResponse } from "node:http";
import type { KubeObject, StoredObject } from "../objects.ts";
import { StatusError } from "../status-error.ts";
import type { ObjectStore, StoreEvent } from "../store/object-store.ts";
import { hasProtobufForm, kubeProtobuf } from "./http-io.ts";
import type { Encoding } from "./media-types.ts";
import { PROTOBUF_MEDIA_TYPE } from "./protobuf/kube-protobuf.ts";

// A watch as the API server streams it: one JSON object per line (or, for a client that prefers
// protobuf and a built-in kind, length-prefixed protobuf frames), replaying from the requested
// resourceVersion (or the current state as ADDED events), then live changes. Objects that start
// or stop matching the selectors arrive as ADDED or DELETED, as from a real watch cache.

export interface WatchRequest {
  resource: string;
  /** null: start with the current state as ADDED events. */
  sinceRevision: number | null;
  matches: (object: StoredObject) => boolean;
  present: (object: StoredObject) => KubeObject;
  bookmarks: boolean;
  bookmarkIntervalMs: number;
  timeoutMs?: number;
  initialObjects: () => StoredObject[];
  /** The kind and apiVersion bookmarks are stamped with. */
  kind: string;
  apiVersion: string;
  encoding: Encoding;
}

/** How a watch's events are written on the wire: the content type, and one event's bytes. */
interface WatchFraming {
  contentType: string;
  event(type: string, object: KubeObject): string | Uint8Array;
}

const JSON_LINES: WatchFraming = {
  contentType: "application/json",
  event: (type, object) => JSON.stringify({ type, object }) + "\n",
};

const PROTOBUF_FRAMES: WatchFraming = {
  contentType: `${PROTOBUF_MEDIA_TYPE};stream=watch`,
  event: (type, object) => kubeProtobuf().watchFrame(type, object),
};

function framingFor(watch: WatchRequest): WatchFraming {
  return watch.encoding === "protobuf" && hasProtobufForm(watch.apiVersion, watch.kind) ? PROTOBUF_FRAMES : JSON_LINES;
}

/** How much a watcher may leave unread before it is disconnected. */
const MAX_UNREAD_BYTES = 16 * 1024 * 1024;

export class WatchHub {
  private readonly open = new Set<ServerResponse>();

  constructor(private readonly store: ObjectStore) {}

  get openCount(): number {
    return this.open.size;
  }

  /** Ends every open watch, as a restarted API server or a broken connection would. */
  dropAll(): number {
    const count = this.open.size;
    for (const response of this.open) response.destroy();
    this.open.clear();
    return count;
  }

  serve(request: IncomingMessage, response: ServerResponse, watch: WatchRequest): void {
    const framing = framingFor(watch);
    const pending: (string | Uint8Array)[] = [];
    const writable = () => !response.writableEnded && !response.destroyed;
    // A watcher that stops reading is dropped, as a real API server drops a slow watcher, rather
    // than buffering for it without limit.
    const send = (chunk: string | Uint8Array) => {
      if (!writable()) return;
      response.write(chunk);
      if (response.writableLength > MAX_UNREAD_BYTES) response.destroy();
    };
    const write = (type: string, object: KubeObject) => send(framing.event(type, object));

    // Replay and subscription happen in one synchronous step, so no change falls between them.
    let replay: StoreEvent[] | StoredObject[];
    try {
      replay = watch.sinceRevision === null ? watch.initialObjects() : this.store.eventsSince(watch.sinceRevision);
    } catch (error) {
      if (!(error instanceof StatusError)) throw error;
      // A real watch cache answers an expired resourceVersion with an ERROR event, not an HTTP error.
      response.writeHead(200, { "Content-Type": framing.contentType, "Transfer-Encoding": "chunked" });
      write("ERROR", { ...error.status });
      response.end();
      return;
    }
    const deliver = (event: StoreEvent) => {
      if (event.resource !== watch.resource) return;
      const before = event.type !== "ADDED" && event.previous !== undefined && watch.matches(event.previous);
      let type: "ADDED" | "MODIFIED" | "DELETED" | null;
      if (event.type === "DELETED") type = before || watch.matches(event.object) ? "DELETED" : null;
      else if (watch.matches(event.object)) type = before ? "MODIFIED" : "ADDED";
      else type = before ? "DELETED" : null;
      if (type) pending.push(framing.event(type, watch.present(event.object)));
    };
    const flush = () => {
      if (pending.length === 0) return;
      send(pending.length === 1 ? pending[0]! : typeof pending[0] === "string" ? pending.join("") : Buffer.concat(pending as Uint8Array[]));
      pending.length = 0;
    };
    const unsubscribe = this.store.subscribe((event) => {
      deliver(event);
      flush();
    });

    response.writeHead(200, { "Content-Type": framing.contentType, "Transfer-Encoding": "chunked", "Cache-Control": "no-cache, private" });
    // Send the headers now: a client's watch call returns only once it has them, and a quiet
    // watch may have no event to carry them for a long time.
    response.flushHeaders();
    this.open.add(response);
    for (const item of replay) {
      if ("type" in item && "revision" in item) deliver(item as StoreEvent);
      else if (watch.matches(item as StoredObject)) pending.push(framing.event("ADDED", watch.present(item as StoredObject)));
    }
    flush();

    const timers: NodeJS.Timeout[] = [];
    if (watch.bookmarks) {
      timers.push(
        setInterval(() => {
          write("BOOKMARK", { kind: watch.kind, apiVersion: watch.apiVersion, metadata: { resourceVersion: String(this.store.currentRevision()) } });
        }, watch.bookmarkIntervalMs),
      );
    }
    const close = () => {
      unsubscribe();
      for (const timer of timers) clearTimeout(timer);
      this.open.delete(response);
    };
    if (watch.timeoutMs !== undefined) {
      timers.push(
        setTimeout(() => {
          close();
          if (writable()) response.end();
        }, watch.timeoutMs),
      );
    }
    request.on("close", close);
    response.on("close", close);
  }
}
