import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anActor } from "../domain/test-fixtures.ts";
import { snapshotResources } from "../kube/snapshot-resources.ts";
import { helperPods } from "../kube/helper-pods.ts";
import { volumeResources } from "../kube/volume-resources.ts";
import { eventually } from "../sim/testing/eventually.ts";
import { findLeftovers, type CleanUpScope, type CleanUpSources } from "./clean-up.ts";
import { deleteSandbox } from "./sandbox-actions.ts";
import { startReconciledWorld, type ReconciledWorld } from "./testing/reconciled-world.ts";
import { deleteReleasedVolume, deleteVolume, setReclaimPolicy, type VolumeActionDeps } from "./volume-actions.ts";

// What storage is left over on the embedded cluster, as the clean-up view finds it: claims no
// live sandbox uses, volumes their claims released, snapshots of claims that are gone.

let world: ReconciledWorld;
let sources: CleanUpSources;
let actions: VolumeActionDeps;
const alice = anActor("alice");
const everything: CleanUpScope = { namespaces: new Set(["default"]), mayListVolumes: true };

beforeAll(async () => {
  world = await startReconciledWorld();
  const snapshots = snapshotResources(world.deps.connection);
  sources = {
    volumes: () => world.reconciler.volumes(),
    persistentVolumes: () => world.reconciler.persistentVolumes(),
    hasClaim: (namespace, name) => world.reconciler.hasClaim(namespace, name),
    sandboxDeletedAt: async (id) => (await world.deps.store.sandboxes.getSandbox(id))?.deletedAt ?? null,
    listSnapshots: (namespace) => snapshots.listSnapshots(namespace),
  };
  actions = { store: world.deps.store, volumes: volumeResources(world.deps.connection, "v1beta1"), known: () => world.reconciler.volumes(), readers: { pods: helperPods(world.deps.connection), labelPrefix: world.deps.defaults.labelPrefix } };
});
afterAll(() => world.stop());

/** A portable workspace kept after its sandbox was deleted. */
async function leftBehind(name: string): Promise<string> {
  const record = await world.readySandbox({ name, workspace: { claim: { ownership: "retain", storageClassName: "portable" } } });
  await deleteSandbox(world.deps, record.id, alice);
  const claim = `workspace-${name}`;
  await eventually(async () => expect((await world.reconciler.volumes()).find((one) => one.name === claim)?.attachedTo).toBeNull(), { timeoutMs: 20_000 });
  return claim;
}

const volumeOf = async (claim: string) => (await world.reconciler.volumes()).find((one) => one.name === claim)!.persistentVolume!.name;

describe("claims no live sandbox uses", () => {
  it("are listed with the sandbox that last used each, and when it was deleted", async () => {
    const claim = await leftBehind("left-1");
    const found = (await findLeftovers(sources, everything)).claims.find((one) => one.name === claim);
    expect(found).toMatchObject({ ownership: "retain", lastSandbox: { name: "left-1", deletedAt: expect.stringMatching(/^\d{4}-/) }, reclaimPolicy: "Delete" });
  });

  it("leave out a live sandbox's claim", async () => {
    await world.readySandbox({ name: "still-here" });
    const names = (await findLeftovers(sources, everything)).claims.map((one) => one.name);
    expect(names).not.toContain("workspace-still-here");
  });

  it("leave out the namespaces the person may not list claims in", async () => {
    await leftBehind("left-hidden");
    expect((await findLeftovers(sources, { namespaces: new Set(["team-b"]), mayListVolumes: true })).claims).toEqual([]);
  });
});

describe("Released volumes", () => {
  it("are listed once their claim is gone, and deleted by uid", async () => {
    const claim = await leftBehind("left-released");
    const volume = await volumeOf(claim);
    await setReclaimPolicy(actions, volume, { reclaimPolicy: "Retain" }, alice);
    await deleteVolume(actions, "default", claim, alice);
    const released = await eventually(async () => {
      const found = (await findLeftovers(sources, everything)).releasedVolumes?.find((one) => one.name === volume);
      if (!found) throw new Error(`${volume} is not Released yet`);
      return found;
    }, { timeoutMs: 20_000 });
    await deleteReleasedVolume(actions, volume, alice);
    expect({ formerClaim: released.formerClaim, gone: await actions.volumes.readPersistentVolume(volume) }).toEqual({ formerClaim: { namespace: "default", name: claim }, gone: null });
  });

  it("are not listed for one who may not list volumes", async () => {
    expect((await findLeftovers(sources, { ...everything, mayListVolumes: false })).releasedVolumes).toBeNull();
  });

  it("are the only ones deleted that way: a Bound volume is its claim's", async () => {
    const claim = await leftBehind("left-bound");
    await expect(deleteReleasedVolume(actions, await volumeOf(claim), alice)).rejects.toMatchObject({ name: "VolumeStateError", message: expect.stringContaining(`Bound to claim default/${claim}: delete the claim instead`) });
  });
});

describe("snapshots whose claim is gone", () => {
  it("are listed; those of a claim that is still there are not", async () => {
    const gone = await leftBehind("left-snapped");
    const kept = await leftBehind("left-kept");
    const snapshots = snapshotResources(world.deps.connection);
    await snapshots.createSnapshot("default", "of-gone", gone, {});
    await snapshots.createSnapshot("default", "of-kept", kept, {});
    await deleteVolume(actions, "default", gone, alice);
    await eventually(async () => expect(world.reconciler.hasClaim("default", gone)).toBe(false), { timeoutMs: 20_000 });
    const names = (await findLeftovers(sources, everything)).snapshots.map((one) => [one.name, one.sourceClaim]);
    expect(names.filter(([name]) => name === "of-gone" || name === "of-kept")).toEqual([["of-gone", gone]]);
  });
});
