import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { SandboxRecord } from "../domain/sandbox-record.ts";
import { parseLabelSelector } from "../domain/label-selector.ts";
import { InvalidCursorError } from "../store/cursor.ts";
import { aStatus } from "../store/test-fixtures.ts";
import { LiveSandboxes } from "./live-sandboxes.ts";

// The in-memory list GET /api/v1/sandboxes serves: ordered and paged as the store would.

function aRecord(minute: number, overrides: Partial<SandboxRecord> = {}): SandboxRecord {
  const at = new Date(Date.UTC(2026, 11, 1, 0, minute));
  return {
    ...aStatus(),
    id: randomUUID(),
    name: `box-${minute}`,
    namespace: "default",
    spec: {},
    workspaceBackend: "pvc",
    origin: "berth",
    provisionedAt: at,
    createdAt: at,
    updatedAt: at,
    deletedAt: null,
    ...overrides,
  };
}

function liveWith(...records: SandboxRecord[]): LiveSandboxes {
  const live = new LiveSandboxes();
  for (const record of records) live.put(record);
  return live;
}

const names = (page: { items: SandboxRecord[] }) => page.items.map((record) => record.name);

describe("the live sandboxes", () => {
  it("list only the sandboxes a label selector picks", () => {
    const live = liveWith(aRecord(1, { spec: { labels: { team: "ml" } } }), aRecord(2, { spec: { labels: { team: "web" } } }), aRecord(3));
    expect(names(live.page({ limit: 10, labelSelector: parseLabelSelector("team!=web") }))).toEqual(["box-3", "box-1"]);
  });

  it("list newest first", () => {
    const live = liveWith(aRecord(1), aRecord(3), aRecord(2));
    expect(names(live.page({ limit: 10 }))).toEqual(["box-3", "box-2", "box-1"]);
  });

  it("hand out a cursor that continues where the page ended", () => {
    const live = liveWith(aRecord(1), aRecord(2), aRecord(3));
    const first = live.page({ limit: 2 });
    expect(names(live.page({ limit: 2, cursor: first.nextCursor! }))).toEqual(["box-1"]);
  });

  it("end with no cursor on the last page", () => {
    const live = liveWith(aRecord(1), aRecord(2));
    expect(live.page({ limit: 2 }).nextCursor).toBeNull();
  });

  it("continue past a record that was deleted after its cursor was handed out", () => {
    const middle = aRecord(2);
    const live = liveWith(aRecord(1), middle, aRecord(3));
    const first = live.page({ limit: 2 });
    live.put({ ...middle, deletedAt: new Date() });
    expect(names(live.page({ limit: 2, cursor: first.nextCursor! }))).toEqual(["box-1"]);
  });

  it("drop a record once it is deleted", () => {
    const record = aRecord(1);
    const live = liveWith(record);
    live.put({ ...record, deletedAt: new Date() });
    expect(live.size).toBe(0);
  });

  it("know a live sandbox's id by its name", () => {
    const record = aRecord(1, { namespace: "team-a" });
    expect([liveWith(record).idOf("team-a", "box-1"), liveWith(record).idOf("default", "box-1")]).toEqual([record.id, undefined]);
  });

  it("forget a deleted sandbox's name, and give it to the sandbox that takes it next", () => {
    const gone = aRecord(1);
    const live = liveWith(gone);
    live.put({ ...gone, deletedAt: new Date(), updatedAt: new Date() });
    const forgotten = live.idOf("default", "box-1");
    const next = aRecord(2, { name: "box-1" });
    live.put(next);
    expect([forgotten, live.idOf("default", "box-1")]).toEqual([undefined, next.id]);
  });

  it("keep a reused name for its new sandbox when the old one is removed after", () => {
    const old = aRecord(1);
    const next = aRecord(2, { name: "box-1" });
    const live = liveWith(old, next);
    live.remove(old.id);
    expect(live.idOf("default", "box-1")).toBe(next.id);
  });

  it("show a record's latest status", () => {
    const record = aRecord(1, { phase: "Provisioning" });
    const live = liveWith(record);
    live.put({ ...record, phase: "Ready" });
    expect(live.page({ limit: 1 }).items[0]?.phase).toBe("Ready");
  });

  it("keep the newer record when an older read of it arrives late", () => {
    const record = aRecord(1, { phase: "Ready" });
    const live = liveWith(record);
    live.put({ ...record, phase: "Provisioning", updatedAt: new Date(record.updatedAt.getTime() - 1) });
    expect(live.get(record.id)?.phase).toBe("Ready");
  });

  it("send a page as the JSON of the page of records", () => {
    const live = liveWith(aRecord(1), aRecord(2), aRecord(3));
    expect(live.wirePage({ limit: 2 }).body).toBe(JSON.stringify(live.page({ limit: 2 })));
  });

  it("give an unchanged page the same ETag", () => {
    const live = liveWith(aRecord(1), aRecord(2));
    expect(live.wirePage({ limit: 10 }).etag).toBe(live.wirePage({ limit: 10 }).etag);
  });

  it("give a page a new ETag when a record on it changes", () => {
    const record = aRecord(1);
    const live = liveWith(record, aRecord(2));
    const before = live.wirePage({ limit: 10 }).etag;
    live.put({ ...record, phase: "Ready" });
    expect(live.wirePage({ limit: 10 }).etag).not.toBe(before);
  });

  it("keep a page's ETag when only a record on another page changes", () => {
    const oldest = aRecord(1);
    const live = liveWith(oldest, aRecord(2), aRecord(3));
    const before = live.wirePage({ limit: 2 }).etag;
    live.put({ ...oldest, phase: "Ready" });
    expect(live.wirePage({ limit: 2 }).etag).toBe(before);
  });

  describe("refreshed from the store", () => {
    const storeHolding = (...records: SandboxRecord[]) => ({ getSandboxes: async (ids: readonly string[]) => records.filter((record) => ids.includes(record.id)) });
    const loaded = async (...records: SandboxRecord[]) => {
      const live = new LiveSandboxes();
      await live.load({ sandboxes: { listAllLive: async () => records } });
      return live;
    };

    it("take the store's newer record", async () => {
      const record = aRecord(1, { phase: "Provisioning" });
      const live = await loaded(record);
      await live.refresh(storeHolding({ ...record, phase: "Ready", updatedAt: new Date(record.updatedAt.getTime() + 1) }), [record.id]);
      expect(live.get(record.id)?.phase).toBe("Ready");
    });

    it("add a record another replica made", async () => {
      const live = await loaded();
      const made = aRecord(1);
      await live.refresh(storeHolding(made), [made.id]);
      expect(live.get(made.id)?.name).toBe(made.name);
    });

    it("drop a record the store no longer has", async () => {
      const undone = aRecord(1);
      const live = await loaded(undone);
      await live.refresh(storeHolding(), [undone.id]);
      expect(live.size).toBe(0);
    });

    /** A store's sandboxes as a follower hears them: word of ids, records this process wrote, and the reads asked of it. */
    const followedStore = (...records: SandboxRecord[]) => {
      const hearing = new Set<(id: string | null) => void>();
      const taking = new Set<(record: SandboxRecord) => void>();
      const asked: string[] = [];
      return {
        asked,
        sandboxes: {
          getSandboxes: async (ids: readonly string[]) => (asked.push(...ids), records.filter((record) => ids.includes(record.id))),
          onChanged: (listener: (id: string | null) => void) => (hearing.add(listener), () => void hearing.delete(listener)),
          onWritten: (listener: (record: SandboxRecord) => void) => (taking.add(listener), () => void taking.delete(listener)),
        },
        word: (id: string | null) => hearing.forEach((listener) => listener(id)),
        written: (record: SandboxRecord) => {
          hearing.forEach((listener) => listener(record.id));
          taking.forEach((listener) => listener(record));
        },
      };
    };

    it("following the store, hold what this process wrote without reading it", async () => {
      const record = aRecord(1, { phase: "Provisioning" });
      const live = await loaded(record);
      const store = followedStore(record);
      live.follow(store.sandboxes);
      store.written({ ...record, phase: "Ready", updatedAt: new Date(record.updatedAt.getTime() + 1) });
      await live.refresh(store.sandboxes, [record.id]);
      expect([live.get(record.id)?.phase, store.asked]).toEqual(["Ready", []]);
    });

    it("following the store, read a record another replica wrote", async () => {
      const record = aRecord(1, { phase: "Provisioning" });
      const live = await loaded(record);
      const store = followedStore({ ...record, phase: "Ready", updatedAt: new Date(record.updatedAt.getTime() + 1) });
      live.follow(store.sandboxes);
      store.word(record.id);
      await live.refresh(store.sandboxes, [record.id]);
      expect(live.get(record.id)?.phase).toBe("Ready");
    });

    it("following the store, read every record asked after word that something may have changed", async () => {
      const records = [aRecord(1), aRecord(2)];
      const live = await loaded(...records);
      const store = followedStore(...records);
      live.follow(store.sandboxes);
      store.word(null);
      await live.refresh(store.sandboxes, records.map((record) => record.id));
      expect(store.asked.sort()).toEqual(records.map((record) => record.id).sort());
    });

    it("following the store, read a record again after a read of it failed", async () => {
      const record = aRecord(1);
      const live = await loaded(record);
      const store = followedStore(record);
      live.follow(store.sandboxes);
      store.word(record.id);
      await expect(live.refresh({ getSandboxes: () => Promise.reject(new Error("the store would not answer")) }, [record.id])).rejects.toThrow();
      await live.refresh(store.sandboxes, [record.id]);
      expect(store.asked).toEqual([record.id]);
    });

    it("following the store, vouch for a record as this process last wrote it", async () => {
      const record = aRecord(1);
      const live = await loaded(record);
      const store = followedStore(record);
      live.follow(store.sandboxes);
      store.written({ ...record, phase: "Ready" });
      expect(live.current(record.id)?.phase).toBe("Ready");
    });

    it("following the store, take this process's writes in the order they came, whatever their clocks say", async () => {
      const record = aRecord(1);
      const live = await loaded(record);
      const store = followedStore(record);
      live.follow(store.sandboxes);
      store.written({ ...record, phase: "Ready", updatedAt: new Date(record.updatedAt.getTime() + 2) });
      store.written({ ...record, phase: "Disrupted", updatedAt: new Date(record.updatedAt.getTime() + 1) });
      expect(live.current(record.id)?.phase).toBe("Disrupted");
    });

    it("not vouch for a record another replica wrote since", async () => {
      const record = aRecord(1);
      const live = await loaded(record);
      const store = followedStore(record);
      live.follow(store.sandboxes);
      store.word(record.id);
      expect(live.current(record.id)).toBeUndefined();
    });

    it("not vouch for any record without following the store", async () => {
      const record = aRecord(1);
      expect((await loaded(record)).current(record.id)).toBeUndefined();
    });

    it("do nothing before the list has loaded", async () => {
      const live = new LiveSandboxes();
      const made = aRecord(1);
      await live.refresh(storeHolding(made), [made.id]);
      expect(live.size).toBe(0);
    });
  });

  it("filter by namespace", () => {
    const live = liveWith(aRecord(1), aRecord(2, { namespace: "team-a" }));
    expect(names(live.page({ limit: 10, namespace: "team-a" }))).toEqual(["box-2"]);
  });

  it("list only the namespaces a caller may see", () => {
    const live = liveWith(aRecord(1), aRecord(2, { namespace: "team-a" }), aRecord(3, { namespace: "team-b" }));
    expect(names(live.page({ limit: 10, namespaces: new Set(["default", "team-b"]) }))).toEqual(["box-3", "box-1"]);
  });

  it("keep a sandbox's place in the list when its status changes", () => {
    const [older, newer] = [aRecord(1), aRecord(2)];
    const live = liveWith(older, newer);
    live.page({ limit: 10 });
    live.put({ ...older, phase: "Disrupted", updatedAt: new Date(Date.UTC(2026, 11, 1, 1)) });
    expect(live.page({ limit: 10 }).items.map((record) => [record.name, record.phase])).toEqual([["box-2", newer.phase], ["box-1", "Disrupted"]]);
  });

  it("name the namespaces that hold live sandboxes, and not one whose last sandbox left", () => {
    const leaving = aRecord(2, { namespace: "team-a" });
    const live = liveWith(aRecord(1), leaving);
    live.remove(leaving.id);
    expect([...live.namespaces()]).toEqual(["default"]);
  });

  it("refuse a cursor they did not hand out", () => {
    expect(() => liveWith(aRecord(1)).page({ limit: 1, cursor: "bm90LWEtY3Vyc29y" })).toThrow(InvalidCursorError);
  });

  it("are not ready until loaded from the store", () => {
    expect(new LiveSandboxes().ready).toBe(false);
  });
});
