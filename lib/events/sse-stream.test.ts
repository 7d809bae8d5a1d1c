import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NewTimelineEvent } from "../domain/timeline.ts";
import type { Store } from "../store/index.ts";
import { openTestStore } from "../store/test-databases.ts";
import { publishTimelineEvent } from "./event-bus.ts";
import { REPLAY_READS_AT_ONCE, timelineEventStream } from "./sse-stream.ts";

// The SSE stream over a real store: replay after Last-Event-ID, then live, without loss or repeats.

let store: Store;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ store, cleanup } = await openTestStore()));
afterAll(() => cleanup());

const anEvent = (reason: string, sandboxId: string | null = null): NewTimelineEvent => ({ sandboxId, type: "Lifecycle", reason, message: reason, occurredAt: new Date() });

/** Stores and publishes, as the reconciler does. */
async function record(reason: string, sandboxId: string | null = null) {
  const event = await store.timeline.appendEvent(anEvent(reason, sandboxId));
  publishTimelineEvent(event);
  return event;
}

/** Reads the stream until `count` timeline events have arrived; returns its messages, as sent. */
async function readMessages(stream: ReadableStream<Uint8Array>, count: number): Promise<string[]> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const messages = () => text.split("\n\n").filter((block) => block.includes("event: "));
  while (messages().filter((block) => block.includes("event: timeline")).length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value);
  }
  reader.releaseLock();
  return messages();
}

/** Reads the stream until `count` events have arrived; returns their reasons and ids. */
async function readEvents(stream: ReadableStream<Uint8Array>, count: number): Promise<{ reasons: string[]; ids: string[] }> {
  const blocks = (await readMessages(stream, count)).filter((block) => block.includes("event: timeline"));
  const parsed = blocks.map((block) => ({ id: /^id: (\d+)$/m.exec(block)![1]!, data: JSON.parse(/^data: (.*)$/m.exec(block)![1]!) as { reason: string } }));
  return { reasons: parsed.map((one) => one.data.reason), ids: parsed.map((one) => one.id) };
}

/** What each message is, in order: `timeline Reason`, or `sandbox <its phase, or gone>`. */
function summaries(messages: string[]): string[] {
  return messages.map((block) => {
    const data = JSON.parse(/^data: (.*)$/m.exec(block)![1]!) as { reason?: string; record?: { phase: string } | null };
    return block.includes("event: sandbox") ? `sandbox ${data.record ? data.record.phase : "gone"}` : `timeline ${data.reason}`;
  });
}

/** The store's timeline, counting the replay pages read from just after `id`. */
function countingReadsAfter(id: string) {
  let reads = 0;
  const timeline = {
    ...store.timeline,
    listAfter: (request: Parameters<Store["timeline"]["listAfter"]>[0]) => {
      if (request.after === id) reads++;
      return store.timeline.listAfter(request);
    },
  };
  return { timeline, reads: () => reads };
}

describe("the timeline event stream", () => {
  it("replays what was missed after Last-Event-ID, then goes live", async () => {
    const seen = await record("SeenBefore");
    await record("MissedOne");
    await record("MissedTwo");
    const abort = new AbortController();
    const stream = timelineEventStream({ timeline: store.timeline, lastEventId: seen.id, signal: abort.signal });
    const reading = readEvents(stream, 3);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await record("Live");
    const { reasons } = await reading;
    abort.abort();
    expect(reasons).toEqual(["MissedOne", "MissedTwo", "Live"]);
  });

  it("gives every event its id, increasing", async () => {
    const start = await record("Start");
    await record("A");
    await record("B");
    const abort = new AbortController();
    const { ids } = await readEvents(timelineEventStream({ timeline: store.timeline, lastEventId: start.id, signal: abort.signal }), 2);
    abort.abort();
    expect(BigInt(ids[1]!) > BigInt(ids[0]!)).toBe(true);
  });

  it("narrows to one sandbox", async () => {
    const sandbox = await store.sandboxes.recordSandbox({ name: `sse-${Date.now().toString(36)}`, namespace: "default", spec: {}, workspaceBackend: "pvc" });
    const start = await record("Start");
    await record("Other");
    await record("Mine", sandbox.id);
    const abort = new AbortController();
    const { reasons } = await readEvents(timelineEventStream({ timeline: store.timeline, lastEventId: start.id, sandboxId: sandbox.id, signal: abort.signal }), 1);
    abort.abort();
    expect(reasons).toEqual(["Mine"]);
  });

  it("sends only live events without Last-Event-ID", async () => {
    await record("History");
    const abort = new AbortController();
    const stream = timelineEventStream({ timeline: store.timeline, signal: abort.signal });
    const reading = readEvents(stream, 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await record("Now");
    const { reasons } = await reading;
    abort.abort();
    expect(reasons).toEqual(["Now"]);
  });

  describe("with each live event about a sandbox", () => {
    const aSandboxId = async () => (await store.sandboxes.recordSandbox({ name: `sse-${crypto.randomUUID().slice(0, 8)}`, namespace: "default", spec: {}, workspaceBackend: "pvc" })).id;
    const liveOnly = async (sandboxNow: (id: string) => string | null | undefined, sandboxId: string) => {
      const abort = new AbortController();
      const reading = readMessages(timelineEventStream({ timeline: store.timeline, sandboxId, sandboxNow, signal: abort.signal }), 1);
      await new Promise((resolve) => setTimeout(resolve, 50));
      await record("PodEvicted", sandboxId);
      const messages = await reading;
      abort.abort();
      return summaries(messages);
    };

    it("sends the sandbox as it now stands, before the event", async () => {
      expect(await liveOnly(() => JSON.stringify({ phase: "Recovering" }), await aSandboxId())).toEqual(["sandbox Recovering", "timeline PodEvicted"]);
    });

    it("says the sandbox is gone once it is no longer live", async () => {
      expect(await liveOnly(() => null, await aSandboxId())).toEqual(["sandbox gone", "timeline PodEvicted"]);
    });

    it("sends the event alone when the sandbox is not known here", async () => {
      expect(await liveOnly(() => undefined, await aSandboxId())).toEqual(["timeline PodEvicted"]);
    });

    it("sends no sandbox with a replayed event: a reconnecting reader reads the lists afresh", async () => {
      const sandboxId = await aSandboxId();
      const start = await record("Start", sandboxId);
      await record("Missed", sandboxId);
      const abort = new AbortController();
      const messages = await readMessages(timelineEventStream({ timeline: store.timeline, lastEventId: start.id, sandboxId, sandboxNow: () => JSON.stringify({ phase: "Ready" }), signal: abort.signal }), 1);
      abort.abort();
      expect(summaries(messages)).toEqual(["timeline Missed"]);
    });
  });

  it("replays a long gap in order, a page at a time", async () => {
    const start = await record("Start");
    for (let index = 0; index < 10; index++) await record(`Missed${index}`);
    const abort = new AbortController();
    const { reasons } = await readEvents(timelineEventStream({ timeline: store.timeline, lastEventId: start.id, signal: abort.signal, bounds: { replayPage: 3 } }), 10);
    abort.abort();
    expect(reasons).toEqual(Array.from({ length: 10 }, (_, index) => `Missed${index}`));
  });

  it("reads no page of the replay before the reader has taken the one before", async () => {
    const start = await record("Start");
    for (let index = 0; index < 6; index++) await record(`Missed${index}`);
    let pagesRead = 0;
    const timeline = { ...store.timeline, listAfter: (request: Parameters<Store["timeline"]["listAfter"]>[0]) => (pagesRead++, store.timeline.listAfter(request)) };
    const abort = new AbortController();
    const stream = timelineEventStream({ timeline, lastEventId: start.id, signal: abort.signal, bounds: { replayPage: 2 } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const idle = pagesRead;
    await readEvents(stream, 6);
    abort.abort();
    // Three pages of two: the fourth (empty, the end) only when the reader asks for more.
    expect([idle, pagesRead]).toEqual([0, 3]);
  });

  it("tells a reader too far behind to reload, with the newest id, and then goes live", async () => {
    const start = await record("Start");
    for (let index = 0; index < 5; index++) await record(`Missed${index}`);
    const newest = await store.timeline.newestId();
    const abort = new AbortController();
    const reader = timelineEventStream({ timeline: store.timeline, lastEventId: start.id, signal: abort.signal, bounds: { replayWindow: 3 } }).getReader();
    let text = "";
    while (!text.includes("event: reload")) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toContain(`id: ${newest}\nevent: reload\ndata: {"reason":"too-far-behind","behindAtLeast":3}`);
    expect(text).not.toContain("event: timeline");
    reader.releaseLock();
    abort.abort();
  });

  it("after a reload, follows live from the newest event", async () => {
    const start = await record("Start");
    for (let index = 0; index < 5; index++) await record(`Missed${index}`);
    const abort = new AbortController();
    const stream = timelineEventStream({ timeline: store.timeline, lastEventId: start.id, signal: abort.signal, bounds: { replayWindow: 3 } });
    const reading = readEvents(stream, 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await record("Live");
    const { reasons } = await reading;
    abort.abort();
    expect(reasons).toEqual(["Live"]);
  });

  it("cuts off a reader that stops reading while live events pile up, and says it ended", async () => {
    let closed = 0;
    const abort = new AbortController();
    const stream = timelineEventStream({ timeline: store.timeline, signal: abort.signal, bounds: { maxBacklog: 3 }, onClose: () => closed++ });
    for (let index = 0; index < 8; index++) await record(`Piled${index}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const reader = stream.getReader();
    await expect((async () => {
      for (;;) if ((await reader.read()).done) return "ended";
    })()).rejects.toThrow("the reader fell too far behind");
    expect(closed).toBe(1);
  });

  it("says it ended exactly once when the client goes away", async () => {
    let closed = 0;
    const abort = new AbortController();
    const stream = timelineEventStream({ timeline: store.timeline, signal: abort.signal, onClose: () => closed++ });
    abort.abort();
    await stream.cancel().catch(() => {});
    expect(closed).toBe(1);
  });

  it("lets only a few streams read their replay from the store at once, however many replay", async () => {
    // Each stream resumes from an event of its own, so no two share a page of replay.
    const resumedFrom = [];
    for (let index = 0; index < 20; index++) resumedFrom.push(await record(`Missed${index}`));
    for (let index = 0; index < 3; index++) await record(`Newer${index}`);
    let reading = 0;
    let most = 0;
    const slowly = <T>(read: () => Promise<T>) => async () => {
      most = Math.max(most, ++reading);
      await new Promise((resolve) => setTimeout(resolve, 5));
      try {
        return await read();
      } finally {
        reading--;
      }
    };
    const timeline = {
      ...store.timeline,
      listAfter: (request: Parameters<Store["timeline"]["listAfter"]>[0]) => slowly(() => store.timeline.listAfter(request))(),
      countAfter: (request: Parameters<Store["timeline"]["countAfter"]>[0]) => slowly(() => store.timeline.countAfter(request))(),
    };
    const abort = new AbortController();
    const streams = resumedFrom.map((event) => timelineEventStream({ timeline, lastEventId: event.id, signal: abort.signal }));
    const missed = (index: number) => resumedFrom.length - 1 - index + 3;
    const replays = await Promise.all(streams.map((stream, index) => readEvents(stream, missed(index))));
    abort.abort();
    expect([replays.every((replay, index) => replay.reasons.length === missed(index)), most]).toEqual([true, REPLAY_READS_AT_ONCE]);
  });

  it("asks who may see the replay once per page, not once per event", async () => {
    const start = await record("Start");
    for (let index = 0; index < 3; index++) await record(`Missed${index}`);
    const asked: number[] = [];
    const visible = async (events: { reason: string }[]) => {
      asked.push(events.length);
      return events.map((event) => event.reason !== "Missed1");
    };
    const abort = new AbortController();
    const replay = await readEvents(timelineEventStream({ timeline: store.timeline, lastEventId: start.id, visible, signal: abort.signal }), 2);
    abort.abort();
    expect({ reasons: replay.reasons, asked }).toEqual({ reasons: ["Missed0", "Missed2"], asked: [3] });
  });

  it("reads a full page of history once, however many readers replay it", async () => {
    const start = await record("Start");
    for (let index = 0; index < 3; index++) await record(`Missed${index}`);
    const { timeline, reads } = countingReadsAfter(start.id);
    const abort = new AbortController();
    const replays = await Promise.all(Array.from({ length: 20 }, () => readEvents(timelineEventStream({ timeline, lastEventId: start.id, signal: abort.signal, bounds: { replayPage: 2 } }), 3)));
    abort.abort();
    expect([replays.every((replay) => replay.reasons.join() === "Missed0,Missed1,Missed2"), reads()]).toEqual([true, 1]);
  });

  it("reads the end of the history once for readers replaying it together, while nothing new is stored", async () => {
    const start = await record("Start");
    for (let index = 0; index < 3; index++) await record(`Missed${index}`);
    const { timeline, reads } = countingReadsAfter(start.id);
    const abort = new AbortController();
    await Promise.all(Array.from({ length: 20 }, () => readEvents(timelineEventStream({ timeline, lastEventId: start.id, signal: abort.signal }), 3)));
    abort.abort();
    expect(reads()).toBe(1);
  });

  it("gives a reader who comes after a new event was stored the new end of the history, not the one read before", async () => {
    const start = await record("Start");
    await record("Before");
    const abort = new AbortController();
    await readEvents(timelineEventStream({ timeline: store.timeline, lastEventId: start.id, signal: abort.signal }), 1);
    await record("After");
    const { reasons } = await readEvents(timelineEventStream({ timeline: store.timeline, lastEventId: start.id, signal: abort.signal }), 2);
    abort.abort();
    expect(reasons).toEqual(["Before", "After"]);
  });
});
