import type { TimelineEvent } from "../domain/timeline.ts";
import type { TimelineRepository } from "../store/timeline-repository.ts";
import { TurnQueue } from "../platform/turn-queue.ts";
import { publishedSoFar, subscribeToTimeline } from "./event-bus.ts";

// GET /api/v1/events as Server-Sent Events: every timeline event with its id, so that a client
// reconnecting with Last-Event-ID gets exactly what it missed (from the store) and then the live
// stream (from the bus) — nothing lost, nothing twice — and a heartbeat so proxies keep it open.
//
// What a reader costs is bounded. The replay is read a page at a time, and the next page only
// when the reader has taken the last one (the stream's pull), so a reader far behind never has
// everything in memory at once. A reader more than REPLAY_WINDOW events behind is not replayed
// at all: it gets a `reload` event (whose id is the newest event's) telling it to read the
// current state afresh, and the live stream from there. A reader that stops reading while live
// events pile up past MAX_BACKLOG is cut off; its browser reconnects with its last id. And
// however many streams replay at once, only REPLAY_READS_AT_ONCE of them read the store, and
// only REPLAY_PAGES_PER_TURN pages leave per turn of the event loop.

export interface SseOptions {
  timeline: Pick<TimelineRepository, "listAfter" | "countAfter" | "newestId">;
  /** The last event id the client has (Last-Event-ID); undefined: live events only. */
  lastEventId?: string;
  sandboxId?: string;
  /**
   * Which of these events the reader may see (the person's RBAC), one answer per event; every
   * event when absent. Asked for a whole replay page at once, so that the few namespaces a page
   * touches are decided once each rather than once per event.
   */
  visible?: (events: TimelineEvent[]) => Promise<boolean[]>;
  signal: AbortSignal;
  heartbeatMs?: number;
  /**
   * A sandbox's JSON as it now stands (null: no longer live; undefined: not known here), sent
   * as a `sandbox` message before each live event about it. Replays send none: a reader that
   * reconnects reads the lists afresh.
   */
  sandboxNow?: (id: string) => string | null | undefined;
  /** Called once when the stream ends, however it ends. */
  onClose?: () => void;
  /** Tests set smaller bounds. */
  bounds?: Partial<typeof DEFAULT_BOUNDS>;
}

const DEFAULT_BOUNDS = { replayPage: 200, replayWindow: 10_000, maxBacklog: 1_000 };

/**
 * Replay pages read from the store at once, across every stream of this process. The embedded
 * store answers one query at a time: 300 streams reading their replays together would queue
 * everything else (a health probe, a page) behind them for seconds. Streams past the limit
 * wait their turn; live events never wait here.
 */
export const REPLAY_READS_AT_ONCE = 2;

class Gate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly limit: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      // A turn of the event loop before each read: the embedded store runs queued queries back to
      // back in microtasks, which would keep every socket (a health probe) waiting until the
      // last stream's read was done.
      await new Promise<void>((resolve) => setImmediate(resolve));
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

const replayReads = new Gate(REPLAY_READS_AT_ONCE);

/**
 * Replay pages sent per turn of the event loop, across every stream of this process. A page
 * costs a millisecond or two to hand to its socket; 300 streams reconnecting together (every tab
 * after a restart) each sending a page in the same turn would keep every other request (a health
 * probe, a page view) waiting a second for each turn. Streams take turns, first come first.
 */
export const REPLAY_PAGES_PER_TURN = 1;

const replayTurns = new TurnQueue(REPLAY_PAGES_PER_TURN);

const encoder = new TextEncoder();

/** Events of a replay page in their wire form, and the whole page's bytes for readers who may see all of it. */
class ReplayPage {
  readonly wires: string[];
  private bytes: Uint8Array | undefined;
  constructor(readonly events: TimelineEvent[]) {
    this.wires = events.map(formatSse);
  }

  get length() {
    return this.events.length;
  }

  /** Encoded once and shared: readers who see the whole page are sent the same bytes. */
  get whole(): Uint8Array {
    return (this.bytes ??= encoder.encode(this.wires.join("")));
  }
}

/**
 * Replay pages, each event already in its wire form. Stored events never change, so a page
 * (after id X, so many events) is the same for every reader: when many readers replay the same
 * history — every tab after a restart — it is read and serialized once, not once each. A full
 * page never changes; a short one (the end of the history) only until the next event is stored,
 * so it is shared only while no event has been published since its read began. A reader that
 * gets such a page subscribed before it asked, so whatever is stored after it is not missed.
 */
class ReplayPages {
  private readonly pages = new Map<string, { page: Promise<ReplayPage>; publishedBefore: number; full: boolean }>();
  constructor(private readonly maxPages: number) {}

  read(timeline: SseOptions["timeline"], request: { after?: string; sandboxId?: string; limit: number }): Promise<ReplayPage> {
    const key = `${request.after ?? ""}/${request.sandboxId ?? ""}/${request.limit}`;
    const known = this.pages.get(key);
    if (known && (known.full || known.publishedBefore === publishedSoFar())) {
      this.pages.delete(key);
      this.pages.set(key, known);
      return known.page;
    }
    const entry = { page: replayReads.run(() => timeline.listAfter(request)).then((events) => new ReplayPage(events)), publishedBefore: publishedSoFar(), full: false };
    this.pages.delete(key);
    this.pages.set(key, entry);
    if (this.pages.size > this.maxPages) this.pages.delete(this.pages.keys().next().value!);
    entry.page.then(
      (page) => (entry.full = page.length === request.limit),
      () => (this.pages.get(key) === entry ? this.pages.delete(key) : undefined),
    );
    return entry.page;
  }
}

/** One of these per store: event ids are only unique within one. */
function perTimeline<T extends object>(make: (timeline: SseOptions["timeline"]) => T): (timeline: SseOptions["timeline"]) => T {
  const made = new WeakMap<SseOptions["timeline"], T>();
  return (timeline) => {
    let one = made.get(timeline);
    if (!one) made.set(timeline, (one = make(timeline)));
    return one;
  };
}

const replayPagesFor = perTimeline(() => new ReplayPages(64));

/**
 * The newest event id, for the replay window's check: streams that open while it is being read
 * share that read, so a reconnecting crowd asks once, and none is answered from an older read.
 */
class NewestId {
  private reading: Promise<string | null> | undefined;
  constructor(private readonly timeline: SseOptions["timeline"]) {}

  read(): Promise<string | null> {
    if (!this.reading) {
      const reading = replayReads.run(() => this.timeline.newestId());
      this.reading = reading;
      const done = () => (this.reading === reading ? (this.reading = undefined) : undefined);
      reading.then(done, done);
    }
    return this.reading;
  }
}

const newestIdFor = perTimeline((timeline) => new NewestId(timeline));

export function formatSse(event: TimelineEvent): string {
  return `id: ${event.id}\nevent: timeline\ndata: ${JSON.stringify(event)}\n\n`;
}

/** A sandbox as it stands (its record's JSON, or null), in the stream's `sandbox` message; no id, so Last-Event-ID stays the last event's. */
export function formatSandboxUpdate(id: string, recordJson: string | null): string {
  return `event: sandbox\ndata: {"id":${JSON.stringify(id)},"record":${recordJson ?? "null"}}\n\n`;
}

/** Tells the client its last id is too far behind to replay: read the state afresh, then follow from `newestId`. */
export function formatReload(newestId: string, behind: number): string {
  return `id: ${newestId}\nevent: reload\ndata: ${JSON.stringify({ reason: "too-far-behind", behindAtLeast: behind })}\n\n`;
}

const after = (a: string, b: string) => BigInt(a) > BigInt(b);

export function timelineEventStream(options: SseOptions): ReadableStream<Uint8Array> {
  const bounds = { ...DEFAULT_BOUNDS, ...options.bounds };
  const wanted = (event: TimelineEvent) => !options.sandboxId || event.sandboxId === options.sandboxId;
  const visible = options.visible ?? (async (events: TimelineEvent[]) => events.map(() => true));
  const visibleOrNone = (events: TimelineEvent[]) => visible(events).catch(() => events.map(() => false));
  let last = options.lastEventId;
  /** Live events that arrive while the replay runs; null once it has finished. */
  let held: TimelineEvent[] | null = options.lastEventId === undefined ? null : [];
  let replaying = options.lastEventId !== undefined;
  let windowChecked = false;
  let ended = false;
  let cleanup = () => {};
  // Set in start(), used by pull() and finishReplay().
  let send: (chunk: string | Uint8Array) => void = () => {};
  let sendLive: (event: TimelineEvent) => void = () => {};

  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const end = () => {
          if (ended) return;
          ended = true;
          cleanup();
          options.onClose?.();
        };
        send = (chunk: string | Uint8Array) => {
          if (ended) return;
          if ((controller.desiredSize ?? 0) < -bounds.maxBacklog) {
            end();
            controller.error(new Error("the reader fell too far behind"));
            return;
          }
          try {
            controller.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
          } catch {
            end();
          }
        };
        // Live events pass the visibility check one after another, so they leave in commit order.
        let sending = Promise.resolve();
        sendLive = (event: TimelineEvent) => {
          sending = sending.then(async () => {
            if ((last === undefined || after(event.id, last)) && (await visibleOrNone([event]))[0]) {
              last = event.id;
              const sandbox = event.sandboxId ? options.sandboxNow?.(event.sandboxId) : undefined;
              send(sandbox === undefined ? formatSse(event) : formatSandboxUpdate(event.sandboxId!, sandbox) + formatSse(event));
            }
          });
        };
        // Subscribed before the replay starts, with live events held until it is done: an event
        // stored while replaying is then either in the replay or in the held ones, never lost.
        const unsubscribe = subscribeToTimeline((event) => {
          if (!wanted(event)) return;
          if (held) held.push(event);
          else sendLive(event);
        });
        const heartbeat = setInterval(() => send(`: heartbeat ${new Date().toISOString()}\n\n`), options.heartbeatMs ?? 15_000);
        cleanup = () => {
          unsubscribe();
          clearInterval(heartbeat);
        };
        options.signal.addEventListener("abort", () => {
          end();
          try {
            controller.close();
          } catch {
            // Already closed or errored.
          }
        });
        send(`retry: 2000\n\n`);
      },
      async pull() {
        if (!replaying || ended) return;
        // Streams take turns at sending pages. A page that is already read (shared) resolves at
        // once, and without turns the next pull, write and pull of every replaying stream would
        // run on as one chain of microtasks while every socket waited.
        await replayTurns.turn();
        if (ended) return;
        if (!windowChecked) {
          windowChecked = true;
          // Is the reader within the window at all? Ids only grow, so a reader fewer ids behind
          // the newest than the window holds is within it, and nothing needs counting.
          const newest = await newestIdFor(options.timeline).read();
          const behind = newest !== null && BigInt(newest) - BigInt(last!) > BigInt(bounds.replayWindow)
            ? await replayReads.run(() => options.timeline.countAfter({ after: last!, sandboxId: options.sandboxId, limit: bounds.replayWindow + 1 }))
            : 0;
          if (behind > bounds.replayWindow) {
            last = newest!;
            send(formatReload(newest!, behind - 1));
            finishReplay();
            return;
          }
        }
        const page = await replayPagesFor(options.timeline).read(options.timeline, { after: last, sandboxId: options.sandboxId, limit: bounds.replayPage });
        const shown = await visibleOrNone(page.events);
        if (page.length > 0) last = page.events[page.length - 1]!.id;
        if (shown.every(Boolean)) {
          if (page.length > 0) send(page.whole);
        } else {
          const text = page.wires.filter((_, index) => shown[index]).join("");
          if (text) send(text);
        }
        if (page.length < bounds.replayPage) finishReplay();
      },
      cancel() {
        if (ended) return;
        ended = true;
        cleanup();
        options.onClose?.();
      },
    },
    // One chunk queued at a time: the next replay page is read once the reader took this one.
    { highWaterMark: 1 },
  );

  function finishReplay() {
    replaying = false;
    const pending = held ?? [];
    held = null;
    for (const event of pending) sendLive(event);
  }
}
