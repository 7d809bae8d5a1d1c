import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anActor } from "../domain/test-fixtures.ts";
import { snapshotResources } from "../kube/snapshot-resources.ts";
import { volumeResources } from "../kube/volume-resources.ts";
import { eventually } from "../sim/testing/eventually.ts";
import { deleteSandbox, execInSandbox } from "./sandbox-actions.ts";
import { listStorageClassViews } from "./storage-classes.ts";
import { startReconciledWorld, type ReconciledWorld } from "./testing/reconciled-world.ts";
import { cloneClaim, deleteSnapshot, listClaimSnapshots, restoreSnapshot, takeSnapshot, type SnapshotDeps } from "./volume-snapshots.ts";

// A claim's snapshots against the simulated cluster, through the real driver: its snapshot
// controller cuts them from the volume's files, and a restore fills a new claim with them.

let world: ReconciledWorld;
let deps: SnapshotDeps;
let counter = 0;
const uniqueName = (what: string) => `${what}-${Date.now().toString(36)}-${++counter}`;

beforeAll(async () => {
  world = await startReconciledWorld();
  const { connection } = world.deps;
  deps = {
    store: world.deps.store,
    volumes: volumeResources(connection, "v1beta1"),
    snapshots: snapshotResources(connection),
    storageClasses: () => listStorageClassViews(connection),
    labelPrefix: world.deps.defaults.labelPrefix,
    defaultNamespace: "default",
    now: () => new Date("2026-12-06T05:30:00Z"),
  };
});
afterAll(() => world.stop());

/** A sandbox whose retained workspace of `storageClassName` holds notes.txt with `text`. */
async function workspaceHolding(text: string, storageClassName = "portable") {
  const name = uniqueName("snapped");
  const sandbox = await world.readySandbox({ name, workspace: { claim: { ownership: "retain", storageClassName, size: "1Gi" } } });
  await execInSandbox(world.deps, sandbox.id, ["sh", "-c", `echo ${text} > /sandbox/notes.txt`], 10, anActor("alice"));
  return { sandbox, claim: `workspace-${name}` };
}

const readyWhen = (claim: string, snapshot: string) =>
  eventually(async () => {
    const found = (await listClaimSnapshots(deps, "default", claim)).find((one) => one.name === snapshot);
    if (!found?.readyToUse) throw new Error(`snapshot ${snapshot}: ${JSON.stringify(found)}`);
    return found;
  }, { timeoutMs: 20_000 });

describe("a claim's snapshot", () => {
  it("is taken, named after the claim and the time when no name is given, and listed ready with its size", async () => {
    const { claim } = await workspaceHolding("monday");
    const taken = await takeSnapshot(deps, "default", claim, {}, anActor("alice"));
    expect(taken.name).toBe(`${claim}-20261206-053000`);
    expect(await readyWhen(claim, taken.name)).toMatchObject({ sourceClaim: claim, restoreSize: "1Gi", error: null });
  });

  it("restores into a new claim holding the files it saved", async () => {
    const { claim } = await workspaceHolding("tuesday");
    const { name: snapshot } = await takeSnapshot(deps, "default", claim, { name: uniqueName("tuesday") }, anActor("alice"));
    await readyWhen(claim, snapshot);
    const restored = uniqueName("restored");
    expect(await restoreSnapshot(deps, "default", claim, snapshot, { name: restored }, anActor("alice"))).toMatchObject({ name: restored, storageClassName: "portable" });
    const reader = await world.readySandbox({ name: uniqueName("reader"), workspace: { claim: { ownership: "existing", claimName: restored } } });
    expect((await execInSandbox(world.deps, reader.id, ["cat", "/sandbox/notes.txt"], 10, anActor("alice"))).stdout).toBe("tuesday\n");
    await deleteSandbox(world.deps, reader.id, anActor("alice"));
  });

  it("is refused for a claim whose class's driver takes no snapshots, naming the class", async () => {
    const { claim } = await workspaceHolding("pinned", "local-path");
    await expect(takeSnapshot(deps, "default", claim, {}, anActor("alice"))).rejects.toMatchObject({ name: "VolumeStateError", message: expect.stringContaining("class local-path (rancher.io/local-path), whose driver takes no snapshots") });
  });

  it("is deleted, and no longer listed", async () => {
    const { claim } = await workspaceHolding("wednesday");
    const { name: snapshot } = await takeSnapshot(deps, "default", claim, { name: uniqueName("wednesday") }, anActor("alice"));
    await readyWhen(claim, snapshot);
    await deleteSnapshot(deps, "default", claim, snapshot, anActor("alice"));
    await eventually(async () => expect((await listClaimSnapshots(deps, "default", claim)).map((one) => one.name)).not.toContain(snapshot), { timeoutMs: 20_000 });
    const audit = (await world.deps.store.audit.listChanges({ limit: 1, targetKind: "PersistentVolumeClaim", targetId: `default/${claim}` })).items;
    expect(audit[0]).toMatchObject({ action: "volume.snapshot-delete", details: { snapshot } });
  });

  it("answers not found for a snapshot of another claim", async () => {
    const first = await workspaceHolding("one");
    const second = await workspaceHolding("two");
    const { name: snapshot } = await takeSnapshot(deps, "default", first.claim, { name: uniqueName("one") }, anActor("alice"));
    await expect(deleteSnapshot(deps, "default", second.claim, snapshot, anActor("alice"))).rejects.toMatchObject({ name: "SnapshotNotFoundError" });
  });
});

describe("a claim's copy", () => {
  /** What notes.txt says in the claim, read by a sandbox that mounts it. */
  async function notesIn(claim: string): Promise<string> {
    const reader = await world.readySandbox({ name: uniqueName("reader"), workspace: { claim: { ownership: "existing", claimName: claim } } });
    const { stdout } = await execInSandbox(world.deps, reader.id, ["cat", "/sandbox/notes.txt"], 10, anActor("alice"));
    await deleteSandbox(world.deps, reader.id, anActor("alice"));
    return stdout;
  }

  it("is cloned by the class's driver, named after the claim, holding its files", async () => {
    const { sandbox, claim } = await workspaceHolding("thursday");
    await deleteSandbox(world.deps, sandbox.id, anActor("alice"));
    const copy = await cloneClaim(deps, "default", claim, {}, anActor("alice"));
    expect([copy.name, copy.via, copy.snapshot, await notesIn(copy.name)]).toEqual([`${claim}-copy`, "clone", null, "thursday\n"]);
  });

  it("goes through a snapshot when asked, which is kept under the copy's name", async () => {
    const { sandbox, claim } = await workspaceHolding("friday");
    await deleteSandbox(world.deps, sandbox.id, anActor("alice"));
    const name = uniqueName("via-snapshot");
    const copy = await cloneClaim(deps, "default", claim, { name, via: "snapshot" }, anActor("alice"));
    expect([copy.snapshot, await notesIn(name), (await listClaimSnapshots(deps, "default", claim)).map((one) => one.name)]).toEqual([name, "friday\n", [name]]);
  });

  it("refuses a name a claim has before any snapshot is taken", async () => {
    const { claim } = await workspaceHolding("saturday");
    await expect(cloneClaim(deps, "default", claim, { name: claim, via: "snapshot" }, anActor("alice"))).rejects.toMatchObject({ name: "VolumeConflictError", path: ["name"] });
    expect(await listClaimSnapshots(deps, "default", claim)).toEqual([]);
  });

  it("is refused where the class's driver cannot fill a copy, on the class", async () => {
    const { claim } = await workspaceHolding("sunday", "local-path");
    await expect(cloneClaim(deps, "default", claim, {}, anActor("alice"))).rejects.toMatchObject({ problems: [{ path: ["storageClassName"], message: expect.stringContaining("cannot clone a claim into class local-path") }] });
  });
});
