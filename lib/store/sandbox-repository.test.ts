import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseLabelSelector } from "../domain/label-selector.ts";
import { InvalidCursorError } from "./cursor.ts";
import type { Store } from "./open-store.ts";
import { SandboxNameTakenError, SandboxNotFoundError } from "./sandbox-repository.ts";
import { openTestStore, testStoreKind } from "./test-databases.ts";
import { aNewSandbox, aStatus, uniqueName } from "./test-fixtures.ts";

let store: Store;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ store, cleanup } = await openTestStore()));
afterAll(() => cleanup());

describe(`sandbox records (${testStoreKind})`, () => {
  it("round-trip identity and spec", async () => {
    const created = await store.sandboxes.recordSandbox(aNewSandbox({ spec: { profile: "claude", env: [{ name: "A", value: "1" }] } }));
    const read = await store.sandboxes.getSandbox(created.id);
    expect(read).toEqual(created);
  });

  it("start Pending with no conditions and no pod", async () => {
    const created = await store.sandboxes.recordSandbox(aNewSandbox());
    expect(created).toMatchObject({ phase: "Pending", conditions: [], podUid: null, nodeName: null, deletedAt: null });
  });

  it("keep live names unique within a namespace", async () => {
    const name = uniqueName();
    await store.sandboxes.recordSandbox(aNewSandbox({ name }));
    await expect(store.sandboxes.recordSandbox(aNewSandbox({ name }))).rejects.toThrow(SandboxNameTakenError);
  });

  it("allow one name in two namespaces", async () => {
    const name = uniqueName();
    await store.sandboxes.recordSandbox(aNewSandbox({ name, namespace: "team-a" }));
    await expect(store.sandboxes.recordSandbox(aNewSandbox({ name, namespace: "team-b" }))).resolves.toMatchObject({ name });
  });

  it("free a name once its sandbox is deleted, keeping the old record", async () => {
    const name = uniqueName();
    const old = await store.sandboxes.recordSandbox(aNewSandbox({ name }));
    await store.sandboxes.markDeleted(old.id, new Date());
    await store.sandboxes.recordSandbox(aNewSandbox({ name }));
    expect(await store.sandboxes.getSandbox(old.id)).toMatchObject({ phase: "Deleted", deletedAt: expect.any(Date) });
  });

  it("answer an id that is not a UUID with no record rather than an error", async () => {
    expect(await store.sandboxes.getSandbox("not-a-uuid")).toBeNull();
  });

  it("read several records by id at once, leaving out ids they do not have", async () => {
    const [one, two] = [await store.sandboxes.recordSandbox(aNewSandbox()), await store.sandboxes.recordSandbox(aNewSandbox())];
    const read = await store.sandboxes.getSandboxes([one.id, two.id, crypto.randomUUID(), "not-a-uuid"]);
    expect(read.map((record) => record.id).sort()).toEqual([one.id, two.id].sort());
  });

  it("find a live sandbox by namespace and name", async () => {
    const created = await store.sandboxes.recordSandbox(aNewSandbox());
    expect((await store.sandboxes.findLiveSandbox(created.namespace, created.name))?.id).toBe(created.id);
  });

  it("save the derived status whole: phase, conditions and pod identity", async () => {
    const created = await store.sandboxes.recordSandbox(aNewSandbox());
    const status = aStatus({
      phase: "Recovering",
      reason: "Unschedulable",
      message: "0/2 nodes are available: 1 node(s) had volume node affinity conflict, 1 node(s) were unschedulable.",
      conditions: [{ type: "Disrupted", status: "True", reason: "NodeDrained", lastTransitionTime: "2026-11-30T10:00:00.000Z" }],
      previousNodeName: "worker-2",
      previousPodUid: "6f1c1f9e-0000-4000-8000-000000000000",
      details: { stateMarker: { podUid: "6f1c1f9e-0000-4000-8000-000000000000", writtenAt: "2026-11-30T10:00:00.000Z" } },
    });
    const saved = await store.sandboxes.saveStatus(created.id, status);
    expect(saved).toMatchObject(status);
  });

  it("refuse a status for a sandbox that has no record", async () => {
    await expect(store.sandboxes.saveStatus("00000000-0000-4000-8000-000000000000", aStatus())).rejects.toThrow(SandboxNotFoundError);
  });

  it("start unprovisioned, made by Berth, until the create marks them provisioned", async () => {
    const created = await store.sandboxes.recordSandbox(aNewSandbox());
    expect([created.origin, created.provisionedAt]).toEqual(["berth", null]);
  });

  it("remember when the create finished", async () => {
    const created = await store.sandboxes.recordSandbox(aNewSandbox());
    const at = new Date("2026-12-01T10:00:00Z");
    expect((await store.sandboxes.markProvisioned(created.id, at)).provisionedAt).toEqual(at);
  });

  it("record a sandbox found in the cluster as such", async () => {
    const found = await store.sandboxes.recordSandbox(aNewSandbox({ origin: "cluster", provisionedAt: new Date("2026-11-30T08:00:00Z") }));
    expect(found.origin).toBe("cluster");
  });

  it("keep why a sandbox was closed when Berth did not delete it", async () => {
    const created = await store.sandboxes.recordSandbox(aNewSandbox());
    const closed = await store.sandboxes.markDeleted(created.id, new Date(), { reason: "DeletedOutsideBerth", message: "deleted with kubectl" });
    expect([closed.phase, closed.reason, closed.message]).toEqual(["Deleted", "DeletedOutsideBerth", "deleted with kubectl"]);
  });

  it("discard a record whose creation was undone, with nothing left behind", async () => {
    const created = await store.sandboxes.recordSandbox(aNewSandbox());
    await store.sandboxes.discardUncreated(created.id);
    expect(await store.sandboxes.getSandbox(created.id)).toBeNull();
  });
});

describe(`word of written sandbox records (${testStoreKind})`, () => {
  it("gives this process's followers each record as it was stored", async () => {
    const created = await store.sandboxes.recordSandbox(aNewSandbox());
    const written: unknown[] = [];
    const stop = store.sandboxes.onWritten((record) => written.push(record));
    try {
      const saved = await store.sandboxes.saveStatus(created.id, aStatus({ phase: "Ready" }));
      expect(written).toEqual([saved]);
    } finally {
      stop();
    }
  });

  it("tells the id before it gives the record", async () => {
    const created = await store.sandboxes.recordSandbox(aNewSandbox());
    const order: string[] = [];
    const stops = [store.sandboxes.onChanged((id) => id === created.id && order.push("id")), store.sandboxes.onWritten((record) => record.id === created.id && order.push("record"))];
    try {
      await store.sandboxes.markDeleted(created.id, new Date());
      expect(order).toEqual(["id", "record"]);
    } finally {
      for (const stop of stops) stop();
    }
  });
});

describe(`listing sandboxes (${testStoreKind})`, () => {
  const namespace = uniqueName("list");

  it("pages through every live sandbox of a namespace, newest first, without repeats", async () => {
    const names = ["box-0", "box-1", "box-2", "box-3", "box-4"];
    for (const name of names) await store.sandboxes.recordSandbox(aNewSandbox({ name, namespace }));
    const seen: { name: string; createdAt: number }[] = [];
    let cursor: string | undefined;
    do {
      const page = await store.sandboxes.listSandboxes({ limit: 2, cursor, namespace });
      seen.push(...page.items.map((item) => ({ name: item.name, createdAt: item.createdAt.getTime() })));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    // Creation times are kept to the millisecond: two sandboxes made in the same one may come in
    // either order (the same one every time), so the order checked is that of the times.
    const newestFirst = [...seen].sort((a, b) => b.createdAt - a.createdAt);
    expect({ names: seen.map((one) => one.name).sort(), order: seen }).toEqual({ names, order: newestFirst });
  });

  it("leaves deleted sandboxes out unless asked", async () => {
    const deleted = await store.sandboxes.recordSandbox(aNewSandbox());
    await store.sandboxes.markDeleted(deleted.id, new Date());
    const live = await store.sandboxes.listSandboxes({ limit: 500 });
    const all = await store.sandboxes.listSandboxes({ limit: 500, includeDeleted: true });
    expect([live.items.some((s) => s.id === deleted.id), all.items.some((s) => s.id === deleted.id)]).toEqual([false, true]);
  });

  it("gives the ids of the live sandboxes, and not of the deleted", async () => {
    const [kept, deleted] = [await store.sandboxes.recordSandbox(aNewSandbox()), await store.sandboxes.recordSandbox(aNewSandbox())];
    await store.sandboxes.markDeleted(deleted.id, new Date());
    const ids = await store.sandboxes.liveIds();
    expect([ids.includes(kept.id), ids.includes(deleted.id)]).toEqual([true, false]);
  });

  it("pages through only the sandboxes whose labels a selector picks, reading on until each page is full", async () => {
    const labelled = uniqueName("labels");
    for (const [index, team] of ["ml", "web", "ml", "web", "web", "ml"].entries()) {
      await store.sandboxes.recordSandbox(aNewSandbox({ name: `box-${index}`, namespace: labelled, spec: { labels: { team } } }));
    }
    const pages: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await store.sandboxes.listSandboxes({ limit: 2, cursor, namespace: labelled, labelSelector: parseLabelSelector("team=ml") });
      pages.push(page.items.length);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(pages).toEqual([2, 1]);
  });

  it("rejects a cursor it did not hand out", async () => {
    await expect(store.sandboxes.listSandboxes({ limit: 2, cursor: "not-a-cursor" })).rejects.toThrow(InvalidCursorError);
  });
});
