import { anActor } from "../domain/test-fixtures.ts";
import { describe, expect, it, vi } from "vitest";
import type { MaintenanceOptions, MaintenanceProgress, RunAuthority } from "../domain/maintenance.ts";
import type { Store } from "./open-store.ts";
import { MaintenanceAlreadyRunningError } from "./maintenance-repository.ts";
import { DeposedWriterError } from "./writer-term-repository.ts";
import { testStoreKind, useTestStore } from "./test-databases.ts";
import { uniqueName } from "./test-fixtures.ts";

// One store per file: runs of other tests share it, so each test drains a node of its own and
// looks for its own runs by id in the store-wide lists.
const database = useTestStore();

const startedAt = new Date("2026-11-30T10:00:00.000Z");
const after = (ms: number) => new Date(startedAt.getTime() + ms);
const options: MaintenanceOptions = { parallelism: 2, evictionTimeoutSeconds: 120, replacementTimeoutSeconds: 600 };

function aRun(overrides: { node?: string; startedAt?: Date; authority?: RunAuthority } = {}, on: Store = database.store) {
  return on.maintenance.startRun({ node: uniqueName("worker"), actor: anActor("alice@example.com"), authority: { kind: "berth" }, options, startedAt, ...overrides });
}

/** A run on the node that has ended: a node has one Running run at most. */
async function aFinishedRun(overrides: { node: string; startedAt: Date }) {
  const run = await aRun(overrides);
  return database.store.maintenance.finishRun(run.id, "Succeeded", "done", after(1));
}

const halfWay: MaintenanceProgress = {
  sandboxes: [
    { sandboxId: "sbx-1", name: "box-a", namespace: "agents", step: "Replaced", message: "Ready on worker-2", checkpointId: "ckpt-1", outcome: "moves", podUid: "uid-a" },
    { sandboxId: "sbx-2", name: "box-b", namespace: "agents", step: "WaitingForOperator", message: "checkpoint hook exited 1", checkpointId: null, outcome: "moves", podUid: null },
  ],
  pods: [{ namespace: "kube-system", pod: "coredns-7d", step: "Evicted", message: "evicted", outcome: "evicted" }],
};

describe(`maintenance runs (${testStoreKind})`, () => {
  it("start Running with their options, no progress, no relaxed budgets and nothing finished", async () => {
    const run = await aRun();
    expect(run).toMatchObject({
      state: "Running",
      actor: "alice@example.com",
      options,
      progress: { sandboxes: [], pods: [] },
      relaxedBudgets: [],
      message: null,
      startedAt,
      finishedAt: null,
    });
  });

  it("keep the progress and relaxed budgets saved after a step, as a restart reads them back", async () => {
    const run = await aRun();
    await database.store.maintenance.saveProgress(run.id, halfWay, [{ namespace: "agents", name: "box-a-pdb" }]);
    const read = await database.store.maintenance.getRun(run.id);
    expect(read).toMatchObject({ state: "Running", progress: halfWay, relaxedBudgets: [{ namespace: "agents", name: "box-a-pdb" }] });
  });

  it("replace the relaxed budgets with the latest list, so a restored budget is no longer listed", async () => {
    const run = await aRun();
    await database.store.maintenance.saveProgress(run.id, halfWay, [{ namespace: "agents", name: "box-a-pdb" }]);
    await database.store.maintenance.saveProgress(run.id, halfWay, []);
    expect((await database.store.maintenance.getRun(run.id))?.relaxedBudgets).toEqual([]);
  });

  it("round-trip start, progress and finish: the outcome, its message and when it ended, with the progress kept", async () => {
    const run = await aRun();
    await database.store.maintenance.saveProgress(run.id, halfWay, []);
    const finished = await database.store.maintenance.finishRun(run.id, "Blocked", "box-b's checkpoint failed and its policy is Block", after(90_000));
    expect(await database.store.maintenance.getRun(run.id)).toEqual(finished);
    expect(finished).toMatchObject({
      id: run.id,
      node: run.node,
      state: "Blocked",
      message: "box-b's checkpoint failed and its policy is Block",
      progress: halfWay,
      startedAt,
      finishedAt: after(90_000),
    });
  });

  it("read back as null when no run has the id", async () => {
    expect(await database.store.maintenance.getRun("00000000-0000-4000-8000-000000000000")).toBeNull();
  });
});

describe(`one run at a time on a node (${testStoreKind})`, () => {
  it("refuses a second run on a node while one is Running, naming it", async () => {
    const node = uniqueName("worker");
    const first = await aRun({ node });
    await expect(aRun({ node })).rejects.toThrow(new MaintenanceAlreadyRunningError(node, first.id));
  });

  it("starts exactly one of several runs asked for at once on one node, whichever replica asks", async () => {
    const node = uniqueName("worker");
    const replicas = database.openReplica ? [database.store, await database.openReplica(), await database.openReplica()] : [database.store, database.store, database.store];
    const outcomes = await Promise.allSettled(replicas.map((replica) => aRun({ node }, replica)));
    const started = outcomes.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value.id] : []));
    const refused = outcomes.flatMap((outcome) => (outcome.status === "rejected" ? [outcome.reason as Error] : []));
    expect({ started: started.length, refused: refused.map((error) => error.message) }).toEqual({
      started: 1,
      refused: [`A maintenance run on node ${node} is already running (${started[0]})`, `A maintenance run on node ${node} is already running (${started[0]})`],
    });
  });

  it("starts a run on a node whose last run has ended", async () => {
    const node = uniqueName("worker");
    await aFinishedRun({ node, startedAt });
    expect((await aRun({ node })).state).toBe("Running");
  });
});

describe(`a node's maintenance history (${testStoreKind})`, () => {
  it("lists that node's runs newest first, and no other node's", async () => {
    const node = uniqueName("worker");
    const first = await aFinishedRun({ node, startedAt });
    const third = await aFinishedRun({ node, startedAt: after(120_000) });
    const second = await aFinishedRun({ node, startedAt: after(60_000) });
    await aRun({ startedAt: after(30_000) });
    const listed = await database.store.maintenance.listRunsForNode(node);
    expect(listed.map((run) => run.id)).toEqual([third.id, second.id, first.id]);
  });

  it("stops at the limit, keeping the newest", async () => {
    const node = uniqueName("worker");
    await aFinishedRun({ node, startedAt });
    const newer = await aFinishedRun({ node, startedAt: after(60_000) });
    const newest = await aFinishedRun({ node, startedAt: after(120_000) });
    expect((await database.store.maintenance.listRunsForNode(node, 2)).map((run) => run.id)).toEqual([newest.id, newer.id]);
  });

  it("is empty for a node never maintained", async () => {
    expect(await database.store.maintenance.listRunsForNode(uniqueName("worker"))).toEqual([]);
  });
});

describe(`runs taken up by the writer (${testStoreKind})`, () => {
  it("are the Running ones, wherever they are, and not the finished ones", async () => {
    const running = await aRun();
    const done = await aRun();
    await database.store.maintenance.finishRun(done.id, "Succeeded", "3 sandboxes moved", after(60_000));
    const ids = (await database.store.maintenance.listRunning()).map((run) => run.id);
    expect([ids.includes(running.id), ids.includes(done.id)]).toEqual([true, false]);
  });
});

describe(`taking a run up, and resuming it (${testStoreKind})`, () => {
  it("counts each time a writer takes it up and names the replica running it", async () => {
    const run = await aRun();
    await database.store.maintenance.takeRun(run.id, "replica-a");
    const taken = await database.store.maintenance.takeRun(run.id, "replica-b");
    expect([taken?.run.attempts, taken?.run.runBy]).toEqual([2, "replica-b"]);
  });

  it("hands the writer the authority the run was asked with", async () => {
    const person = { username: "ops@example.com", groups: ["platform"] };
    const run = await aRun({ authority: { kind: "impersonate", person } });
    expect((await database.store.maintenance.takeRun(run.id, "replica-a"))?.authority).toEqual({ kind: "impersonate", person });
  });

  it("is not possible once the run has ended", async () => {
    const run = await aRun();
    await database.store.maintenance.finishRun(run.id, "Succeeded", "done", after(1));
    expect(await database.store.maintenance.takeRun(run.id, "replica-a")).toBeNull();
  });

  it("refuses progress from a writer whose term is over", async () => {
    const lease = uniqueName("lease");
    const run = await aRun();
    await database.store.writerTerms.claim({ lease, term: 1 }, "replica-a", startedAt);
    await database.store.writerTerms.claim({ lease, term: 2 }, "replica-b", startedAt);
    await expect(database.store.maintenance.saveProgress(run.id, halfWay, [], { lease, term: 1 })).rejects.toThrow(DeposedWriterError);
  });

  it("keeps the progress of the current writer", async () => {
    const lease = uniqueName("lease");
    const run = await aRun();
    await database.store.writerTerms.claim({ lease, term: 3 }, "replica-a", startedAt);
    await database.store.maintenance.saveProgress(run.id, halfWay, [], { lease, term: 3 });
    expect((await database.store.maintenance.getRun(run.id))?.progress).toEqual(halfWay);
  });
});

describe(`asking a run to stop (${testStoreKind})`, () => {
  it("marks a Running run, which stays Running until its writer has stopped it", async () => {
    const run = await aRun();
    expect(await database.store.maintenance.requestCancel(run.id)).toMatchObject({ state: "Running", cancelRequested: true });
  });

  it("answers a run that has ended as it is", async () => {
    const run = await aRun();
    const finished = await database.store.maintenance.finishRun(run.id, "Succeeded", "done", after(1));
    expect(await database.store.maintenance.requestCancel(run.id)).toEqual(finished);
  });

  it("answers null for a run that does not exist", async () => {
    expect(await database.store.maintenance.requestCancel("00000000-0000-4000-8000-000000000000")).toBeNull();
  });

  it("tells every replica, so that the writer stops it at once", async () => {
    const run = await aRun();
    const told: (string | null)[] = [];
    const stopHearing = database.store.maintenance.onChanged((id) => told.push(id));
    try {
      await database.store.maintenance.requestCancel(run.id);
      await vi.waitFor(() => expect(told).toContain(run.id));
    } finally {
      stopHearing();
    }
  });
});

describe(`maintenance outcomes for the metrics (${testStoreKind})`, () => {
  it("count each finished run by how it ended and leave running ones out", async () => {
    const before = await database.store.maintenance.finishedOutcomes();
    for (const state of ["Succeeded", "Cancelled", "Interrupted"] as const) {
      const run = await aRun();
      await database.store.maintenance.finishRun(run.id, state, `ended ${state}`, after(1_000));
    }
    await aRun();
    const count = (outcomes: { outcome: string }[], outcome: string) => outcomes.filter((one) => one.outcome === outcome).length;
    const now = await database.store.maintenance.finishedOutcomes();
    expect({
      Succeeded: count(now, "Succeeded") - count(before, "Succeeded"),
      Cancelled: count(now, "Cancelled") - count(before, "Cancelled"),
      Interrupted: count(now, "Interrupted") - count(before, "Interrupted"),
      Running: count(now, "Running"),
    }).toEqual({ Succeeded: 1, Cancelled: 1, Interrupted: 1, Running: 0 });
  });
});
