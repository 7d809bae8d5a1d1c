import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import type { NewTimelineEvent, TimelineEvent } from "../domain/timeline.ts";
import { eventually } from "../sim/testing/eventually.ts";
import type { Store } from "../store/index.ts";
import { testStoreKind, useTestStore } from "../store/test-databases.ts";
import { followStoreTimeline, subscribeToTimeline } from "./event-bus.ts";
import { recordTimelineEvent } from "./record-timeline-event.ts";
import { TimelineFeed, type TimelineFeedOptions, type TimelineSource } from "./timeline-feed.ts";

// A feed over a real store: what it publishes is what the store holds, once each and in id
// order, whichever store instance (replica) appended it.

const database = useTestStore();

const running: (TimelineFeed | { stop(): void })[] = [];
afterEach(() => running.splice(0).forEach((one) => one.stop()));

/** Long enough that a test passing within it was not saved by the poll. */
const NO_POLL: TimelineFeedOptions = { pollMs: 60_000 };

async function startFeed(source: TimelineSource = database.store.timeline, options: TimelineFeedOptions = NO_POLL) {
  const feed = new TimelineFeed(source, options);
  const seen: TimelineEvent[] = [];
  feed.subscribe((event) => seen.push(event));
  await feed.start();
  running.push(feed);
  return { feed, seen, ids: () => seen.map((event) => event.id) };
}

const anEvent = (message: string): NewTimelineEvent => ({ sandboxId: null, type: "Lifecycle", reason: "Ready", message, occurredAt: new Date() });
const append = (message: string, on: Store = database.store) => on.timeline.appendEvent(anEvent(message));

describe(`the timeline feed (${testStoreKind})`, () => {
  it("publishes each event stored after it started, in id order", async () => {
    const { feed, ids } = await startFeed();
    const stored = [await append("one"), await append("two"), await append("three")];
    await feed.publishedThrough(stored[2]!.id);
    expect(ids()).toEqual(stored.map((event) => event.id));
  });

  it("leaves what was stored before it started to the store's replay", async () => {
    const before = await append("before");
    const { feed, ids } = await startFeed();
    const after = await append("after");
    await feed.publishedThrough(after.id);
    expect(ids()).not.toContain(before.id);
  });

  it("publishes every event of many appended at once, each once", async () => {
    const { feed, ids } = await startFeed(database.store.timeline, { ...NO_POLL, pageSize: 7 });
    const stored = await Promise.all(Array.from({ length: 40 }, (_, index) => append(`burst ${index}`)));
    const newest = stored.map((event) => BigInt(event.id)).reduce((a, b) => (a > b ? a : b));
    await feed.publishedThrough(newest.toString());
    expect(ids()).toEqual(stored.map((event) => event.id).sort((a, b) => Number(BigInt(a) - BigInt(b))));
  });

  it("reads again after the store failed to answer, and loses nothing", async () => {
    let failures = 1;
    const flaky: TimelineSource = {
      ...database.store.timeline,
      listAfter: async (request) => {
        if (failures-- > 0) throw new Error("connection reset");
        return database.store.timeline.listAfter(request);
      },
    };
    const errors: unknown[] = [];
    const { feed, ids } = await startFeed(flaky, { ...NO_POLL, retryMs: 10, onError: (error) => errors.push(error) });
    const stored = await append("after a failed read");
    await feed.publishedThrough(stored.id);
    await eventually(() => expect(ids()).toEqual([stored.id]));
    expect(errors).toHaveLength(1);
  });

  it("finds an event it was not told of at its next poll", async () => {
    const silent: TimelineSource = { ...database.store.timeline, onAppended: () => () => {} };
    const { ids } = await startFeed(silent, { pollMs: 20 });
    const stored = await append("untold");
    await eventually(() => expect(ids()).toEqual([stored.id]));
  });

  it("has the event with live subscribers by the time recordTimelineEvent returns, when the process follows the store", async () => {
    running.push(await followStoreTimeline(database.store.timeline, NO_POLL));
    const seen: string[] = [];
    const unsubscribe = subscribeToTimeline((event) => seen.push(event.id));
    try {
      const stored = await recordTimelineEvent(database.store.timeline, anEvent("recorded"));
      expect(seen).toEqual([stored.id]);
    } finally {
      unsubscribe();
    }
  });
});

describe.runIf(testStoreKind === "postgresql")("the timeline feed across replicas (postgresql)", () => {
  it("hands each page to beforePublish before any subscriber has it", async () => {
    const order: string[] = [];
    const feed = new TimelineFeed(database.store.timeline, { ...NO_POLL, beforePublish: async (events) => void order.push(...events.map((event) => `ready ${event.message}`)) });
    feed.subscribe((event) => order.push(`published ${event.message}`));
    await feed.start();
    running.push(feed);
    await feed.publishedThrough((await append("one")).id);
    expect(order).toEqual(["ready one", "published one"]);
  });

  it("publishes a page all the same when beforePublish fails, and reports it", async () => {
    const failures: unknown[] = [];
    const { feed, ids } = await startFeed(database.store.timeline, { ...NO_POLL, beforePublish: () => Promise.reject(new Error("the store would not answer")), onError: (error) => failures.push(error) });
    const stored = await append("one");
    await feed.publishedThrough(stored.id);
    expect([ids(), failures.length]).toEqual([[stored.id], 1]);
  });

  it("publishes what another replica stores, told by NOTIFY", async () => {
    const other = await database.openReplica!();
    const { ids } = await startFeed();
    const stored = await append("stored elsewhere", other);
    await eventually(() => expect(ids()).toEqual([stored.id]));
  });

  it("publishes every event two replicas append at once, each once and in id order", async () => {
    const other = await database.openReplica!();
    const first = await startFeed();
    const second = await startFeed(other.timeline);
    const stored = await Promise.all(Array.from({ length: 60 }, (_, index) => append(`race ${index}`, index % 2 ? other : database.store)));
    const expected = stored.map((event) => event.id).sort((a, b) => Number(BigInt(a) - BigInt(b)));
    await eventually(() => expect([first.ids(), second.ids()]).toEqual([expected, expected]));
  });

  it("catches up after its listening connection is cut", async () => {
    const other = await database.openReplica!();
    const { ids } = await startFeed();
    const listening = () => backendsOf("berth store listener");
    await eventually(async () => expect(await listening()).not.toEqual([]));
    await terminate(await listening());
    const stored = await append("while the listener was down", other);
    await eventually(() => expect(ids()).toEqual([stored.id]));
  });
});

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: database.databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const backendsOf = (applicationName: string) =>
  withAdmin(async (client) => (await client.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()", [applicationName])).rows.map((row) => row.pid));

const terminate = (pids: number[]) => withAdmin((client) => client.query("SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid", [pids]));
