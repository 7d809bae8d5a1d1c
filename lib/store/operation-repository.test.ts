import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Store } from "./open-store.ts";
import { OperationInFlightError } from "./operation-repository.ts";
import { testStoreKind, useTestStore } from "./test-databases.ts";

const database = useTestStore();

const now = new Date("2026-12-04T12:00:00.000Z");
const later = (seconds: number) => new Date(now.getTime() + seconds * 1000);
/** An operation unrenewed for 30 s is stale. */
const staleAt = (at: Date) => new Date(at.getTime() - 30_000);
/** Registered at `at` by `replica`, taking over only what is stale by then. */
const begin = (sandboxId: string, replica: string, at = now, on: Store = database.store) => on.operations.begin({ targetId: sandboxId, kind: "lifecycle", replica }, at, staleAt(at));
const inFlight = (sandboxId: string, at = now) => database.store.operations.inFlight(sandboxId, "lifecycle", staleAt(at));

describe(`operations in flight (${testStoreKind})`, () => {
  it("are seen by every replica while they run", async () => {
    const sandboxId = randomUUID();
    await begin(sandboxId, "replica-a");
    expect(await inFlight(sandboxId)).toMatchObject({ targetId: sandboxId, kind: "lifecycle", replica: "replica-a" });
  });

  it("are refused to a second replica while the first renews, naming it", async () => {
    const sandboxId = randomUUID();
    await begin(sandboxId, "replica-a");
    await database.store.operations.renew("replica-a", later(20));
    await expect(begin(sandboxId, "replica-b", later(40))).rejects.toThrow(OperationInFlightError);
  });

  it("are taken over once their replica has not renewed them for the stale time", async () => {
    const sandboxId = randomUUID();
    await begin(sandboxId, "replica-a");
    await begin(sandboxId, "replica-b", later(31));
    expect((await inFlight(sandboxId, later(31)))?.replica).toBe("replica-b");
  });

  it("no longer count once their replica stopped renewing them", async () => {
    const sandboxId = randomUUID();
    await begin(sandboxId, "replica-a");
    expect(await inFlight(sandboxId, later(31))).toBeNull();
  });

  it("end for everyone, and every listener is told which sandbox", async () => {
    const sandboxId = randomUUID();
    const told: (string | null)[] = [];
    const stop = database.store.operations.onSettled((id) => told.push(id));
    try {
      await begin(sandboxId, "replica-a");
      await database.store.operations.end({ targetId: sandboxId, kind: "lifecycle", replica: "replica-a" });
      expect({ inFlight: await inFlight(sandboxId), told: told.includes(sandboxId) }).toEqual({ inFlight: null, told: true });
    } finally {
      stop();
    }
  });

  it("are not ended by a replica whose operation was taken over", async () => {
    const sandboxId = randomUUID();
    await begin(sandboxId, "replica-a");
    await begin(sandboxId, "replica-b", later(31));
    await database.store.operations.end({ targetId: sandboxId, kind: "lifecycle", replica: "replica-a" });
    expect((await inFlight(sandboxId, later(31)))?.replica).toBe("replica-b");
  });

  it("go to exactly one of several replicas asking at once", async () => {
    const sandboxId = randomUUID();
    const replicas = database.openReplica ? [database.store, await database.openReplica(), await database.openReplica()] : [database.store, database.store, database.store];
    const outcomes = await Promise.allSettled(replicas.map((replica, index) => begin(sandboxId, `replica-${index}`, now, replica)));
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["fulfilled", "rejected", "rejected"]);
  });
});
