import { anActor } from "../domain/test-fixtures.ts";
import { CoreV1Api } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mergePatch } from "../kube/patch-options.ts";
import { helperPods } from "../kube/helper-pods.ts";
import { volumeResources } from "../kube/volume-resources.ts";
import { eventually } from "../sim/testing/eventually.ts";
import { snapshotResources } from "../kube/snapshot-resources.ts";
import { listStorageClassViews } from "./storage-classes.ts";
import { deleteSandbox, execInSandbox } from "./sandbox-actions.ts";
import { startReconciledWorld, type ReconciledWorld } from "./testing/reconciled-world.ts";
import { createVolume, deleteVolume, expandVolume, setReclaimPolicy, type VolumeActionDeps } from "./volume-actions.ts";

// The Volumes page's actions against the simulated cluster, through the real driver: the guards
// read what the cluster says, and the writes carry preconditions.

let world: ReconciledWorld;
let deps: VolumeActionDeps;
let counter = 0;
const uniqueName = (what: string) => `${what}-${Date.now().toString(36)}-${++counter}`;

beforeAll(async () => {
  world = await startReconciledWorld();
  deps = { store: world.deps.store, volumes: volumeResources(world.deps.connection, "v1beta1"), known: () => world.reconciler.volumes(), readers: { pods: helperPods(world.deps.connection), labelPrefix: world.deps.defaults.labelPrefix } };
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

  /** The driver, with someone else writing to the claim just before each of Berth's writes to it. */
  const racedBy = (writes: number): VolumeActionDeps => {
    const core = world.deps.connection.kubeConfig.makeApiClient(CoreV1Api);
    let left = writes;
    const volumes = {
      ...deps.volumes,
      requestStorage: async (namespace: string, name: string, size: string, resourceVersion: string) => {
        if (left-- > 0) await core.patchNamespacedPersistentVolumeClaim({ namespace, name, body: { metadata: { labels: { touched: String(left) } } } }, mergePatch);
        return deps.volumes.requestStorage(namespace, name, size, resourceVersion);
      },
    };
    return { ...deps, volumes };
  };

  it("reads the claim again and grows it when it changed between the read and the write", async () => {
    const name = uniqueName("raced");
    await world.readySandbox({ name, workspace: { claim: { ownership: "retain", storageClassName: "portable", size: "1Gi" } } });
    const claim = `workspace-${name}`;
    expect(await expandVolume(racedBy(1), "default", claim, { size: "2Gi" }, anActor("alice"))).toEqual({ from: "1Gi", to: "2Gi" });
    await knownWhen(claim, (_state, capacity) => capacity === "2Gi");
  });

  it("gives up, changing nothing, when the claim changed under both tries", async () => {
    const name = uniqueName("churn");
    await world.readySandbox({ name, workspace: { claim: { ownership: "retain", storageClassName: "portable", size: "1Gi" } } });
    const claim = `workspace-${name}`;
    await expect(expandVolume(racedBy(2), "default", claim, { size: "2Gi" }, anActor("alice"))).rejects.toMatchObject({ name: "VolumeStateError", message: expect.stringContaining("changed while it was being grown, twice") });
    expect((await deps.volumes.readClaim("default", claim))?.spec?.resources?.requests?.storage).toBe("1Gi");
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

describe("creating a claim", () => {
  const creationDeps = () => ({ store: world.deps.store, volumes: deps.volumes, snapshots: snapshotResources(world.deps.connection), storageClasses: () => listStorageClassViews(world.deps.connection), labelPrefix: world.deps.defaults.labelPrefix, defaultNamespace: "default" });
  /** A bound portable claim holding `file` with `text`, written through a sandbox that then stops using it. */
  async function claimHolding(file: string, text: string): Promise<string> {
    const name = uniqueName("source");
    const sandbox = await world.readySandbox({ name, workspace: { claim: { ownership: "retain", storageClassName: "portable", size: "1Gi" } } });
    await execInSandbox(world.deps, sandbox.id, ["sh", "-c", `echo ${text} > /sandbox/${file}`], 10, anActor("alice"));
    await deleteSandbox(world.deps, sandbox.id, anActor("alice"));
    await knownWhen(`workspace-${name}`, (state) => state === "detached");
    return `workspace-${name}`;
  }
  /** What `file` holds in the claim, read by a sandbox mounting it as its existing workspace. */
  async function readFrom(claim: string, file: string): Promise<string> {
    const reader = await world.readySandbox({ name: uniqueName("reader"), workspace: { claim: { ownership: "existing", claimName: claim } } });
    const { stdout } = await execInSandbox(world.deps, reader.id, ["cat", `/sandbox/${file}`], 10, anActor("alice"));
    await deleteSandbox(world.deps, reader.id, anActor("alice"));
    return stdout;
  }

  it("makes a retained claim of the cluster's default class, listed as Berth's and free, and audits it", async () => {
    const name = uniqueName("fresh");
    const created = await createVolume(creationDeps(), { name, size: "1Gi" }, anActor("alice"));
    expect(created).toMatchObject({ namespace: "default", name, ownership: "retain", storageClassName: null });
    const listed = await knownWhen(name, (state) => state === "detached");
    expect([listed.ownership, listed.sandbox]).toEqual(["retain", null]);
    expect((await auditOf(name))[0]).toMatchObject({ action: "volume.create", outcome: "Succeeded", details: { size: "1Gi", retain: true } });
  });

  it("clones a claim into a new one holding the same files, in the source's class", async () => {
    const source = await claimHolding("notes.txt", "cloned");
    const name = uniqueName("clone");
    const created = await createVolume(creationDeps(), { name, size: "1Gi", dataSource: { kind: "PersistentVolumeClaim", name: source } }, anActor("alice"));
    expect(created.storageClassName).toBe("portable");
    expect(await readFrom(name, "notes.txt")).toBe("cloned\n");
  });

  it("restores a VolumeSnapshot into a new claim holding the files it saved", async () => {
    const source = await claimHolding("notes.txt", "snapped");
    const snapshot = uniqueName("snap");
    await snapshotResources(world.deps.connection).createSnapshot("default", snapshot, source, {});
    await eventually(async () => expect((await snapshotResources(world.deps.connection).readSnapshot("default", snapshot))?.readyToUse).toBe(true), { timeoutMs: 20_000 });
    const name = uniqueName("restored");
    await createVolume(creationDeps(), { name, size: "1Gi", storageClassName: "portable", dataSource: { kind: "VolumeSnapshot", name: snapshot } }, anActor("alice"));
    expect(await readFrom(name, "notes.txt")).toBe("snapped\n");
  });

  it.each([
    ["a snapshot that is not there, on dataSource.name", { dataSource: { kind: "VolumeSnapshot", name: "no-such-snapshot" } }, ["dataSource", "name"]],
    ["a claim to clone that is not there, on dataSource.name", { dataSource: { kind: "PersistentVolumeClaim", name: "no-such-claim" } }, ["dataSource", "name"]],
    ["a class the cluster does not have, on storageClassName", { storageClassName: "gold" }, ["storageClassName"]],
    ["a size Kubernetes cannot read, on size", { size: "lots" }, ["size"]],
  ])("refuses %s, making nothing", async (_, input, path) => {
    const name = uniqueName("refused");
    await expect(createVolume(creationDeps(), { name, size: "1Gi", ...input }, anActor("alice"))).rejects.toMatchObject({ name: "RequestRejectedError", problems: [{ path }] });
    expect(await deps.volumes.readClaim("default", name)).toBeNull();
  });

  it("refuses a clone smaller than its source, on size", async () => {
    const source = await claimHolding("notes.txt", "big");
    await expect(createVolume(creationDeps(), { name: uniqueName("small"), size: "512Mi", dataSource: { kind: "PersistentVolumeClaim", name: source } }, anActor("alice"))).rejects.toMatchObject({
      problems: [{ path: ["size"], message: expect.stringContaining("at least 1Gi") }],
    });
  });

  it("refuses a clone into another class than its source's, on storageClassName", async () => {
    const source = await claimHolding("notes.txt", "elsewhere");
    await expect(createVolume(creationDeps(), { name: uniqueName("moved"), size: "1Gi", storageClassName: "local-path", dataSource: { kind: "PersistentVolumeClaim", name: source } }, anActor("alice"))).rejects.toMatchObject({
      problems: [{ path: ["storageClassName"], message: expect.stringContaining("class portable") }],
    });
  });

  it("refuses to restore into a class whose provisioner would leave the claim empty, naming one that fills it", async () => {
    const source = await claimHolding("notes.txt", "kept");
    const snapshot = uniqueName("snap");
    await snapshotResources(world.deps.connection).createSnapshot("default", snapshot, source, {});
    await eventually(async () => expect((await snapshotResources(world.deps.connection).readSnapshot("default", snapshot))?.readyToUse).toBe(true), { timeoutMs: 20_000 });
    await expect(createVolume(creationDeps(), { name: uniqueName("empty"), size: "1Gi", storageClassName: "local-path", dataSource: { kind: "VolumeSnapshot", name: snapshot } }, anActor("alice"))).rejects.toMatchObject({
      problems: [{ path: ["storageClassName"], message: expect.stringMatching(/class local-path .*the claim would be empty; choose portable/) }],
    });
  });

  it("refuses a name a claim of the namespace has, on name", async () => {
    const name = uniqueName("twice");
    await createVolume(creationDeps(), { name, size: "1Gi" }, anActor("alice"));
    await expect(createVolume(creationDeps(), { name, size: "1Gi" }, anActor("alice"))).rejects.toMatchObject({ name: "VolumeConflictError", path: ["name"] });
  });
});

describe("switching a volume's reclaim policy", () => {
  /** A bound portable claim Berth knows, and its volume's name. */
  async function keptVolume(): Promise<{ claim: string; volume: string }> {
    const name = uniqueName("reclaim");
    await world.readySandbox({ name, workspace: { claim: { ownership: "retain", storageClassName: "portable", size: "1Gi" } } });
    const known = await knownWhen(`workspace-${name}`, (state) => state === "attached");
    return { claim: known.name, volume: known.volumeName! };
  }

  it("keeps the volume after its claim when switched to Retain, and audits what it was", async () => {
    const { claim, volume } = await keptVolume();
    expect(await setReclaimPolicy(deps, volume, { reclaimPolicy: "Retain" }, anActor("paula"))).toEqual({ name: volume, from: "Delete", to: "Retain", claim: `default/${claim}` });
    expect((await deps.volumes.readPersistentVolume(volume))?.spec?.persistentVolumeReclaimPolicy).toBe("Retain");
    const audit = (await world.deps.store.audit.listChanges({ limit: 1, targetKind: "PersistentVolume", targetId: volume })).items;
    expect(audit[0]).toMatchObject({ action: "volume.reclaim-policy", details: { from: "Delete", to: "Retain" } });
  });

  it("leaves a volume switched to Retain in the cluster, Released, once its claim is deleted", async () => {
    const name = uniqueName("released");
    const sandbox = await world.readySandbox({ name, workspace: { claim: { ownership: "retain", storageClassName: "portable", size: "1Gi" } } });
    const { volumeName } = await knownWhen(`workspace-${name}`, (state) => state === "attached");
    await setReclaimPolicy(deps, volumeName!, { reclaimPolicy: "Retain" }, anActor("paula"));
    await deleteSandbox(world.deps, sandbox.id, anActor("alice"));
    await knownWhen(`workspace-${name}`, (state) => state === "detached");
    await deleteVolume(deps, "default", `workspace-${name}`, anActor("alice"));
    await eventually(async () => expect((await deps.volumes.readPersistentVolume(volumeName!))?.status?.phase).toBe("Released"), { timeoutMs: 20_000 });
  });

  it("switches back to Delete", async () => {
    const { volume } = await keptVolume();
    await setReclaimPolicy(deps, volume, { reclaimPolicy: "Retain" }, anActor("paula"));
    expect((await setReclaimPolicy(deps, volume, { reclaimPolicy: "Delete" }, anActor("paula"))).from).toBe("Retain");
  });

  it("refuses a policy Kubernetes has no such word for, naming the field", async () => {
    const { volume } = await keptVolume();
    await expect(setReclaimPolicy(deps, volume, { reclaimPolicy: "Recycle" }, anActor("paula"))).rejects.toMatchObject({ problems: [{ path: ["reclaimPolicy"] }] });
  });

  it("answers not found for a volume whose claim Berth does not know", async () => {
    await expect(setReclaimPolicy(deps, "pvc-nobody-knows", { reclaimPolicy: "Retain" }, anActor("paula"))).rejects.toMatchObject({ name: "PersistentVolumeNotFoundError" });
  });
});
