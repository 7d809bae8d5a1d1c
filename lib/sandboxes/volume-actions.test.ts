import { anActor } from "../domain/test-fixtures.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { volumeResources } from "../kube/volume-resources.ts";
import { eventually } from "../sim/testing/eventually.ts";
import { deleteSandbox } from "./sandbox-actions.ts";
import { startReconciledWorld, type ReconciledWorld } from "./testing/reconciled-world.ts";
import { deleteVolume, expandVolume, type VolumeActionDeps } from "./volume-actions.ts";

// The Volumes page's actions against the simulated cluster, through the real driver: the guards
// read what the cluster says, and the writes carry preconditions.

let world: ReconciledWorld;
let deps: VolumeActionDeps;
let counter = 0;
const uniqueName = (what: string) => `${what}-${Date.now().toString(36)}-${++counter}`;

beforeAll(async () => {
  world = await startReconciledWorld();
  deps = { store: world.deps.store, volumes: volumeResources(world.deps.connection, "v1beta1"), known: () => world.reconciler.volumes() };
});
afterAll(() => world.stop());

/** The claim as the Volumes page lists it, once the reconciler's watches have it in this state. */
const knownWhen = (name: string, check: (state: string, capacity: string | null) => boolean) =>
  eventually(async () => {
    const volume = (await world.reconciler.volumes()).find((one) => one.name === name);
    if (!volume || !check(volume.state, volume.capacity)) throw new Error(`claim ${name} is ${volume ? `${volume.state}, ${volume.capacity}` : "not known"}`);
    return volume;
  }, { timeoutMs: 20_000 });

const auditOf = async (name: string) => (await world.deps.store.audit.listChanges({ limit: 5, targetKind: "PersistentVolumeClaim", targetId: `default/${name}` })).items;

describe("deleting a claim", () => {
  it("is refused while a sandbox uses it, naming the sandbox and its pod, and allowed once it is detached", async () => {
    const name = uniqueName("keep");
    const sandbox = await world.readySandbox({ name, workspace: { claim: { ownership: "retain" } } });
    const claim = `workspace-${name}`;
    await knownWhen(claim, (state) => state === "attached");

    const refused = deleteVolume(deps, "default", claim, anActor("alice"));
    await expect(refused).rejects.toMatchObject({ name: "VolumeInUseError", users: [`sandbox ${name} (ownership retain)`, expect.stringMatching(new RegExp(`^pod ${name} on worker-`))] });

    await deleteSandbox(world.deps, sandbox.id, anActor("alice"));
    await knownWhen(claim, (state) => state === "detached");
    const deleted = await deleteVolume(deps, "default", claim, anActor("alice"));
    expect(deleted).toMatchObject({ ownership: "retain", sandbox: name });
    expect((await auditOf(claim))[0]).toMatchObject({ action: "volume.delete", outcome: "Succeeded", details: { uid: deleted.uid, ownership: "retain" } });
    await eventually(async () => expect(await deps.volumes.readClaim("default", claim)).toBeNull(), { timeoutMs: 20_000 });
  });

  it("is refused for a template claim its live sandbox owns, even while the sandbox is stopped", async () => {
    const name = uniqueName("tmpl");
    const sandbox = await world.readySandbox({ name });
    await world.deps.resources.setRunning("default", name, false);
    await knownWhen(`workspace-${name}`, (state) => state === "detached");
    await expect(deleteVolume(deps, "default", `workspace-${name}`, anActor("alice"))).rejects.toMatchObject({ name: "VolumeInUseError", users: [`sandbox ${name} (ownership template)`] });
    await deleteSandbox(world.deps, sandbox.id, anActor("alice"));
  });

  it("answers not found for a claim Berth does not know", async () => {
    await expect(deleteVolume(deps, "default", "nobody-knows-me", anActor("alice"))).rejects.toMatchObject({ name: "VolumeNotFoundError" });
  });

  it("only ever deletes the claim with the uid that was checked", async () => {
    const name = uniqueName("stale");
    const sandbox = await world.readySandbox({ name, workspace: { claim: { ownership: "retain" } } });
    await deleteSandbox(world.deps, sandbox.id, anActor("alice"));
    const claim = await deps.volumes.readClaim("default", `workspace-${name}`);
    await expect(deps.volumes.deleteClaim("default", `workspace-${name}`, "00000000-0000-4000-8000-000000000000")).rejects.toMatchObject({ code: 409 });
    expect((await deps.volumes.readClaim("default", `workspace-${name}`))?.metadata?.uid).toBe(claim?.metadata?.uid);
  });
});

describe("growing a claim", () => {
  it("grows a claim of a class that allows expansion; the capacity follows", async () => {
    const name = uniqueName("grow");
    await world.readySandbox({ name, workspace: { claim: { ownership: "retain", storageClassName: "portable", size: "1Gi" } } });
    const claim = `workspace-${name}`;
    await knownWhen(claim, (_state, capacity) => capacity === "1Gi");
    expect(await expandVolume(deps, "default", claim, { size: "3Gi" }, anActor("alice"))).toEqual({ from: "1Gi", to: "3Gi" });
    await knownWhen(claim, (_state, capacity) => capacity === "3Gi");
    expect((await auditOf(claim))[0]).toMatchObject({ action: "volume.expand", outcome: "Succeeded", details: { from: "1Gi", to: "3Gi" } });
  });

  it("refuses a size that is not larger, naming the size field", async () => {
    const name = uniqueName("shrink");
    await world.readySandbox({ name, workspace: { claim: { ownership: "retain", storageClassName: "portable", size: "2Gi" } } });
    await expect(expandVolume(deps, "default", `workspace-${name}`, { size: "2048Mi" }, anActor("alice"))).rejects.toMatchObject({
      name: "RequestRejectedError",
      problems: [{ path: ["size"], message: expect.stringContaining("larger than the claim's current 2Gi") }],
    });
    await expect(expandVolume(deps, "default", `workspace-${name}`, { size: "lots" }, anActor("alice"))).rejects.toMatchObject({ problems: [{ path: ["size"] }] });
  });

  it("refuses a claim whose class does not allow expansion, naming the class", async () => {
    const name = uniqueName("pinned");
    await world.readySandbox({ name, workspace: { claim: { ownership: "retain", storageClassName: "local-path" } } });
    await expect(expandVolume(deps, "default", `workspace-${name}`, { size: "5Gi" }, anActor("alice"))).rejects.toMatchObject({
      problems: [{ path: ["size"], message: expect.stringContaining("StorageClass local-path does not allow volume expansion") }],
    });
  });
});
