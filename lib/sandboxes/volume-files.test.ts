import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anActor } from "../domain/test-fixtures.ts";
import { DEFAULT_VOLUME_READER_IMAGE } from "../config/server-config.ts";
import { nodeResources } from "../kube/node-resources.ts";
import { helperPods } from "../kube/helper-pods.ts";
import { volumeResources } from "../kube/volume-resources.ts";
import { renderVolumeReaderPod, VOLUME_READER_LIFETIME_SECONDS } from "../render/volume-reader-pod.ts";
import { eventually } from "../sim/testing/eventually.ts";
import { deleteSandbox, execInSandbox } from "./sandbox-actions.ts";
import { deleteVolume } from "./volume-actions.ts";
import { startReconciledWorld, type ReconciledWorld } from "./testing/reconciled-world.ts";
import { listVolumeFiles, readVolumeFile, startVolumeReader, sweepVolumeReaders, type VolumeFilesDeps } from "./volume-files.ts";

// Reading inside claims on the embedded cluster: through the running sandbox that mounts one,
// or through a helper pod for a claim nothing mounts — started only when asked for, reused while
// it has time left, removed by the reconciler once its time is up, whoever left it behind.

let world: ReconciledWorld;
let deps: VolumeFilesDeps;
const alice = anActor("alice");

beforeAll(async () => {
  world = await startReconciledWorld();
  deps = { connection: world.deps.connection, volumes: () => world.reconciler.volumes(), audit: world.deps.store.audit, labelPrefix: world.deps.defaults.labelPrefix, image: DEFAULT_VOLUME_READER_IMAGE, pollMs: 20 };
});
afterAll(() => world.stop());

const helpers = () => helperPods(world.deps.connection).list(`${world.deps.defaults.labelPrefix}/helper=volume-reader`, "default");
const historyOf = async (claim: string) =>
  (await world.deps.store.audit.listChanges({ limit: 20, targetKind: "PersistentVolumeClaim", targetId: `default/${claim}` })).items.map((entry) => [entry.action, entry.actor]).reverse();

/** A sandbox whose workspace holds a few files, written through its own shell. */
async function sandboxWithFiles(name: string, ownership = "template") {
  const record = await world.readySandbox({ name, workspace: { claim: { ownership } } });
  const script = "mkdir -p /sandbox/notes && printf 'write tests\\n' > /sandbox/notes/todo.md && printf x > \"/sandbox/$(printf 'two\\nlines')\"";
  await execInSandbox(world.deps, record.id, ["sh", "-c", script], 10, alice);
  return record;
}

/** A claim kept after its sandbox went: nothing mounts it. */
async function freeClaim(name: string): Promise<string> {
  const record = await sandboxWithFiles(name, "retain");
  await deleteSandbox(world.deps, record.id, alice);
  const claim = `workspace-${name}`;
  await eventually(async () => expect((await world.reconciler.volumes()).find((one) => one.name === claim)?.attachedTo).toBeNull(), { timeoutMs: 20_000 });
  return claim;
}

describe("a claim a running sandbox mounts", () => {
  it("is listed through the sandbox's own container, directories first, odd names made safe", async () => {
    await sandboxWithFiles("files-live");
    const listing = await listVolumeFiles(deps, "default", "workspace-files-live", "/");
    const kinds = listing.entries.map((entry) => entry.kind);
    expect({
      reader: listing.reader,
      written: listing.entries.filter((entry) => ["notes", "two\nlines"].includes(entry.name)).map((entry) => [entry.displayName, entry.kind, entry.path]),
      directoriesFirst: kinds.lastIndexOf("directory") < kinds.indexOf("file"),
    }).toEqual({
      reader: { kind: "mounting-pod", pod: "files-live", container: "agent", mountPath: "/sandbox", subPath: null },
      written: [["notes", "directory", "/notes"], ["two\\nlines", "file", "/two\nlines"]],
      directoriesFirst: true,
    });
  });

  it("hands out a file whole", async () => {
    await sandboxWithFiles("files-read");
    const { content } = await readVolumeFile(deps, "default", "workspace-files-read", "/notes/todo.md");
    expect(content.toString()).toBe("write tests\n");
  });

  it("says a path that is not there is not found, naming it", async () => {
    await sandboxWithFiles("files-missing");
    await expect(listVolumeFiles(deps, "default", "workspace-files-missing", "/gone")).rejects.toMatchObject({ status: 404, code: "path-not-found", message: expect.stringContaining("/gone in claim default/workspace-files-missing") });
  });

  it("refuses to list a file as a directory", async () => {
    await sandboxWithFiles("files-kind");
    await expect(listVolumeFiles(deps, "default", "workspace-files-kind", "/notes/todo.md")).rejects.toMatchObject({ status: 400, code: "not-a-directory" });
  });

  it("does not hand out a file over the limit, and says how large it is", async () => {
    const record = await sandboxWithFiles("files-big");
    await execInSandbox(world.deps, record.id, ["sh", "-c", "printf '%10485761s' x > /sandbox/big.bin"], 30, alice);
    await expect(readVolumeFile(deps, "default", "workspace-files-big", "/big.bin")).rejects.toMatchObject({ status: 413, message: expect.stringContaining("/big.bin is 10485761 bytes") });
  });
});

describe("a claim nothing mounts", () => {
  it("is not read until a reader is asked for", async () => {
    const claim = await freeClaim("files-idle");
    await expect(listVolumeFiles(deps, "default", claim, "/")).rejects.toMatchObject({ status: 409, code: "reader-needed" });
  });

  it("is read through a helper pod started as the person, and reused while it has time left", async () => {
    const claim = await freeClaim("files-helper");
    const first = await startVolumeReader(deps, "default", claim, alice);
    const second = await startVolumeReader(deps, "default", claim, alice);
    const listing = await listVolumeFiles(deps, "default", claim, "/notes");
    expect({ started: [first.started, second.started], same: second.reader, through: listing.reader.kind, names: listing.entries.map((entry) => entry.name) }).toEqual({
      started: [true, false],
      same: first.reader,
      through: "helper-pod",
      names: ["todo.md"],
    });
  });

  it("shares one helper between requests at the same moment", async () => {
    const claim = await freeClaim("files-race");
    const readers = await Promise.all([startVolumeReader(deps, "default", claim, alice), startVolumeReader(deps, "default", claim, alice)]);
    expect(new Set(readers.map((one) => one.reader.kind === "helper-pod" && one.reader.pod)).size).toBe(1);
  });

  it("loses its helper to the sweep once the helper's time is up, and its history says so", async () => {
    const claim = await freeClaim("files-expiry");
    const { reader } = await startVolumeReader(deps, "default", claim, alice);
    const later = () => new Date(Date.now() + (VOLUME_READER_LIFETIME_SECONDS + 1) * 1000);
    const removed = await sweepVolumeReaders({ pods: helperPods(world.deps.connection), audit: world.deps.store.audit, labelPrefix: world.deps.defaults.labelPrefix, now: later });
    expect({ removed: removed.includes(`default/${reader.kind === "helper-pod" ? reader.pod : ""}`), history: await historyOf(claim) }).toEqual({
      removed: true,
      history: [["volume.reader-start", "alice"], ["volume.reader-remove", "berth"]],
    });
  });

  it("loses a helper left behind by a Berth stopped half-way at the reconciler's next resync", async () => {
    const claim = await freeClaim("files-orphan");
    // What a start does before it waits for the pod: the Berth that made it never came back.
    const longAgo = new Date(Date.now() - 2 * VOLUME_READER_LIFETIME_SECONDS * 1000);
    const orphan = await helperPods(world.deps.connection).create(renderVolumeReaderPod({ namespace: "default", claim, image: DEFAULT_VOLUME_READER_IMAGE, startedBy: "alice", now: longAgo }, world.deps.defaults.labelPrefix));
    await world.reconciler.resyncAll();
    expect((await helpers()).map((pod) => pod.metadata?.name)).not.toContain(orphan.metadata?.name);
  });

  it("does not hold up the claim's delete: the helper goes with it, and the claim is gone at once", async () => {
    const claim = await freeClaim("files-deleted");
    await startVolumeReader(deps, "default", claim, alice);
    const volumes = volumeResources(world.deps.connection, world.deps.sandboxApiVersion);
    const readers = { pods: helperPods(world.deps.connection), labelPrefix: world.deps.defaults.labelPrefix };
    await deleteVolume({ store: world.deps.store, volumes, known: () => world.reconciler.volumes(), readers }, "default", claim, alice);
    await eventually(async () => expect(await volumes.readClaim("default", claim)).toBeNull(), { timeoutMs: 10_000 });
    expect((await helpers()).filter((pod) => pod.metadata?.annotations?.["berth.dev/claim"] === claim)).toEqual([]);
  });

  it("gives up on a helper that cannot start in time, deleting it and saying why", async () => {
    const claim = await freeClaim("files-stuck");
    const node = (await world.reconciler.volumes()).find((one) => one.name === claim)?.pinnedToNode;
    if (!node) throw new Error(`${claim} is not pinned to a node: the default class should be node-local`);
    // The claim's data lives on that node alone: cordoned, no new pod can go there.
    await nodeResources(world.deps.connection).setUnschedulable(node, true);
    try {
      const failing = startVolumeReader({ ...deps, startTimeoutMs: 1_000 }, "default", claim, alice);
      await expect(failing).rejects.toMatchObject({ status: 504, code: "reader-not-started", message: expect.stringContaining("still Pending") });
      expect((await helpers()).filter((pod) => pod.metadata?.annotations?.["berth.dev/claim"] === claim && !pod.metadata.deletionTimestamp)).toEqual([]);
    } finally {
      await nodeResources(world.deps.connection).setUnschedulable(node, false);
    }
  });
});
