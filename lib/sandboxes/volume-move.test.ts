import { CoreV1Api, PatchStrategy, RbacAuthorizationV1Api, setHeaderOptions, type V1PolicyRule } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anActor } from "../domain/test-fixtures.ts";
import { DEFAULT_VOLUME_READER_IMAGE } from "../config/server-config.ts";
import { connectionFor } from "../kube/acting-as.ts";
import { helperPods } from "../kube/helper-pods.ts";
import { nodeResources } from "../kube/node-resources.ts";
import { volumeResources } from "../kube/volume-resources.ts";
import { listStorageClassViews } from "./storage-classes.ts";
import { eventually } from "../sim/testing/eventually.ts";
import { deleteSandbox, execInSandbox } from "./sandbox-actions.ts";
import { startReconciledWorld, type ReconciledWorld } from "./testing/reconciled-world.ts";
import { readVolumeFile, startVolumeReader, type VolumeFilesDeps } from "./volume-files.ts";
import { listVolumeMoves, startVolumeMove, sweepVolumeMovers, type VolumeMoveDeps } from "./volume-move.ts";

// Moving a workspace to a portable class on the embedded cluster: a node-pinned (local-path)
// claim nothing uses is copied by a helper pod into a new claim of the portable class, the old
// claim kept; the reconciler's sweep records the end in the claim's history and removes the
// helper; a failed copy takes its half-filled claim with it; nothing is made when the move is
// refused.

let world: ReconciledWorld;
let deps: VolumeMoveDeps;
const alice = anActor("alice");

beforeAll(async () => {
  world = await startReconciledWorld();
  const { connection, sandboxApiVersion } = world.deps;
  deps = {
    volumes: volumeResources(connection, sandboxApiVersion),
    pods: helperPods(connection),
    known: () => world.reconciler.volumes(),
    withUsage: async (volumes) => volumes,
    storageClasses: () => listStorageClassViews(connection),
    audit: world.deps.store.audit,
    labelPrefix: world.deps.defaults.labelPrefix,
    image: DEFAULT_VOLUME_READER_IMAGE,
  };
});
afterAll(() => world.stop());

const movers = () => helperPods(world.deps.connection).list(`${world.deps.defaults.labelPrefix}/helper=volume-mover`, "default");
const claimNamed = (name: string) => volumeResources(world.deps.connection, world.deps.sandboxApiVersion).readClaim("default", name);
const filesDeps = (): VolumeFilesDeps => ({ connection: world.deps.connection, volumes: () => world.reconciler.volumes(), audit: world.deps.store.audit, labelPrefix: world.deps.defaults.labelPrefix, image: DEFAULT_VOLUME_READER_IMAGE, pollMs: 20 });

/** What a kubelet writes when the copy's container exits 1 with this message. */
async function reportCopyFailed(pod: string, message: string): Promise<void> {
  const core = world.deps.connection.kubeConfig.makeApiClient(CoreV1Api);
  const terminated = { exitCode: 1, reason: "Error", message, startedAt: new Date(), finishedAt: new Date() };
  await core.patchNamespacedPodStatus(
    { namespace: "default", name: pod, body: { status: { phase: "Failed", containerStatuses: [{ name: "copy", image: DEFAULT_VOLUME_READER_IMAGE, imageID: "", ready: false, restartCount: 0, state: { terminated } }] } } },
    setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
  );
}

/** The move's deps acting as a person of a group bound, in namespace default, to just these rules. */
async function asSomeoneWho(group: string, rules: V1PolicyRule[]): Promise<VolumeMoveDeps> {
  const rbac = world.deps.connection.kubeConfig.makeApiClient(RbacAuthorizationV1Api);
  await rbac.createNamespacedRole({ namespace: "default", body: { metadata: { name: group }, rules } });
  await rbac.createNamespacedRoleBinding({ namespace: "default", body: { metadata: { name: group }, roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: group }, subjects: [{ kind: "Group", name: group }] } });
  const as = connectionFor(world.deps.connection, { kind: "impersonate", person: { username: `${group}@berth.example`, groups: [group] } });
  return { ...deps, volumes: volumeResources(as, world.deps.sandboxApiVersion), pods: helperPods(as) };
}

/** A node-pinned workspace kept after its sandbox went, holding a few files: nothing mounts it. */
async function pinnedFreeClaim(name: string): Promise<string> {
  const record = await world.readySandbox({ name, workspace: { claim: { ownership: "retain", storageClassName: "local-path" } } });
  const script = "mkdir -p /sandbox/notes && printf 'write tests\\n' > /sandbox/notes/todo.md && printf hidden > /sandbox/.env";
  await execInSandbox(world.deps, record.id, ["sh", "-c", script], 10, alice);
  await deleteSandbox(world.deps, record.id, alice);
  const claim = `workspace-${name}`;
  await eventually(async () => expect((await world.reconciler.volumes()).find((one) => one.name === claim)?.attachedTo).toBeNull(), { timeoutMs: 20_000 });
  return claim;
}

/** The move's state once its helper has ended, from the list the claim's page reads. */
async function endedMove(claim: string) {
  return eventually(async () => {
    const [latest] = await listVolumeMoves(deps, "default", claim);
    expect(latest?.phase).toMatch(/Succeeded|Failed/);
    return latest!;
  }, { timeoutMs: 20_000 });
}

describe("moving a free node-pinned workspace to the portable class", () => {
  it("copies every file, hidden ones too, into a new retained claim of that class", async () => {
    const claim = await pinnedFreeClaim("move-copies");
    const started = await startVolumeMove(deps, "default", claim, { storageClassName: "portable" }, alice);
    expect(started).toMatchObject({ source: claim, target: `${claim}-moved`, storageClassName: "portable", startedBy: alice.username });
    expect((await endedMove(claim)).phase).toBe("Succeeded");
    await world.reconciler.sweepVolumeMovers();
    const files = filesDeps();
    await startVolumeReader(files, "default", `${claim}-moved`, alice);
    const { content } = await readVolumeFile(files, "default", `${claim}-moved`, "/notes/todo.md");
    const hidden = await readVolumeFile(files, "default", `${claim}-moved`, "/.env");
    expect([content.toString(), hidden.content.toString()]).toEqual(["write tests\n", "hidden"]);
  });

  it("makes the new claim of the portable class, retained for a sandbox to take up, and keeps the old one", async () => {
    const claim = await pinnedFreeClaim("move-keeps");
    await startVolumeMove(deps, "default", claim, { storageClassName: "portable", name: "move-keeps-portable" }, alice);
    await endedMove(claim);
    const [target, source] = await Promise.all([claimNamed("move-keeps-portable"), claimNamed(claim)]);
    expect({
      targetClass: target?.spec?.storageClassName,
      targetOwnership: target?.metadata?.labels?.[`${world.deps.defaults.labelPrefix}/claim-ownership`],
      sourceKept: source?.metadata?.deletionTimestamp === undefined && source?.status?.phase === "Bound",
    }).toEqual({ targetClass: "portable", targetOwnership: "retain", sourceKept: true });
  });

  it("records the end in the claim's history and removes its helper at the next sweep", async () => {
    const claim = await pinnedFreeClaim("move-sweep");
    const started = await startVolumeMove(deps, "default", claim, { storageClassName: "portable" }, alice);
    await endedMove(claim);
    expect(await world.reconciler.sweepVolumeMovers()).toContain(`default/${started.pod}`);
    const [recorded] = await listVolumeMoves(deps, "default", claim);
    const target = await claimNamed(`${claim}-moved`);
    expect({
      helpers: (await movers()).filter((pod) => pod.metadata?.name === started.pod).length,
      recorded: [recorded?.phase, recorded?.target, recorded?.startedBy],
      stillMarked: target?.metadata?.labels?.[`${world.deps.defaults.labelPrefix}/move-copying`] ?? null,
    }).toEqual({ helpers: 0, recorded: ["Succeeded", `${claim}-moved`, alice.username], stillMarked: null });
  });
});

describe("a copy under way", () => {
  it("reports the bytes in the new claim of those in the old one, as their kubelet measured them", async () => {
    const claim = await pinnedFreeClaim("move-progress");
    const pinned = (await world.reconciler.volumes()).find((one) => one.name === claim)!.pinnedToNode!;
    // Held off its node, the copy stays under way while its figures are read.
    await nodeResources(world.deps.connection).setUnschedulable(pinned, true);
    try {
      const measured: VolumeMoveDeps = { ...deps, withUsage: async (volumes) => volumes.map((one) => ({ ...one, usedBytes: one.name === claim ? 4096 : 1024 })) };
      await startVolumeMove(measured, "default", claim, { storageClassName: "portable" }, alice);
      const [move] = await listVolumeMoves(measured, "default", claim);
      expect([move?.phase, move?.copiedBytes, move?.totalBytes]).toEqual(["Starting", 1024, 4096]);
    } finally {
      await nodeResources(world.deps.connection).setUnschedulable(pinned, false);
    }
  });
});

describe("a copy that fails", () => {
  it("is recorded as failed, saying why, and its half-filled claim deleted by the sweep", async () => {
    const claim = await pinnedFreeClaim("move-fails");
    const pinned = (await world.reconciler.volumes()).find((one) => one.name === claim)!.pinnedToNode!;
    // Held off its node, so that this test writes the copy's end as the kubelet would report a cp that exited 1.
    await nodeResources(world.deps.connection).setUnschedulable(pinned, true);
    try {
      const started = await startVolumeMove(deps, "default", claim, { storageClassName: "portable" }, alice);
      await reportCopyFailed(started.pod!, "cp: error writing '/to/notes/todo.md': No space left on device");
      const ended = await endedMove(claim);
      expect(ended).toMatchObject({ phase: "Failed", message: "the copy stopped (exit 1): cp: error writing '/to/notes/todo.md': No space left on device" });
      await world.reconciler.sweepVolumeMovers();
      expect(await claimNamed(`${claim}-moved`)).toBeNull();
    } finally {
      await nodeResources(world.deps.connection).setUnschedulable(pinned, false);
    }
  });
});

describe("a copy whose helper is gone before it ended", () => {
  it("has its half-filled claim deleted by a later sweep, and its end recorded", async () => {
    const claim = await pinnedFreeClaim("move-orphan");
    // The claim's node cordoned: the copy cannot start, and its helper is deleted while it waits.
    const pinned = (await world.reconciler.volumes()).find((one) => one.name === claim)!.pinnedToNode!;
    await nodeResources(world.deps.connection).setUnschedulable(pinned, true);
    try {
      const started = await startVolumeMove(deps, "default", claim, { storageClassName: "portable" }, alice);
      await helperPods(world.deps.connection).delete("default", started.pod!, (await helperPods(world.deps.connection).read("default", started.pod!))!.metadata!.uid!);
      const later = new Date(Date.now() + 5 * 60_000);
      await sweepVolumeMovers({ pods: helperPods(world.deps.connection), volumes: volumeResources(world.deps.connection, world.deps.sandboxApiVersion), audit: world.deps.store.audit, labelPrefix: world.deps.defaults.labelPrefix, now: () => later });
      const [recorded] = await listVolumeMoves(deps, "default", claim);
      expect({ claim: await claimNamed(`${claim}-moved`), phase: recorded?.phase, message: recorded?.message }).toEqual({
        claim: null,
        phase: "Failed",
        message: expect.stringContaining("its helper pod was gone before the copy ended"),
      });
    } finally {
      await nodeResources(world.deps.connection).setUnschedulable(pinned, false);
    }
  });

  it("keeps a new claim whose helper is still being made", async () => {
    const claim = await pinnedFreeClaim("move-young");
    const started = await startVolumeMove(deps, "default", claim, { storageClassName: "portable" }, alice);
    await endedMove(claim);
    await helperPods(world.deps.connection).delete("default", started.pod!, (await helperPods(world.deps.connection).read("default", started.pod!))!.metadata!.uid!);
    await world.reconciler.sweepVolumeMovers();
    expect((await claimNamed(`${claim}-moved`))?.metadata?.name).toBe(`${claim}-moved`);
  });
});

describe("a move that is refused leaves nothing behind", () => {
  it("refuses a class that pins volumes to a node, on its field, naming the portable ones", async () => {
    const claim = await pinnedFreeClaim("move-pinned");
    await expect(startVolumeMove(deps, "default", claim, { storageClassName: "local-path" }, alice)).rejects.toMatchObject({
      problems: [{ path: ["storageClassName"], message: expect.stringContaining("choose portable") }],
    });
    expect(await claimNamed(`${claim}-moved`)).toBeNull();
  });

  it("refuses a claim a sandbox uses: a copy of a workspace being written would not be whole", async () => {
    const record = await world.readySandbox({ name: "move-in-use", workspace: { claim: { ownership: "retain", storageClassName: "local-path" } } });
    await expect(startVolumeMove(deps, "default", "workspace-move-in-use", { storageClassName: "portable" }, alice)).rejects.toMatchObject({
      name: "VolumeStateError",
      message: expect.stringContaining(`sandbox ${record.name}`),
    });
    expect(await claimNamed("workspace-move-in-use-moved")).toBeNull();
  });

  it("refuses a second move of a claim while the first is under way", async () => {
    const claim = await pinnedFreeClaim("move-twice");
    // The node the claim is pinned to is cordoned: the first copy cannot be scheduled, so it stays under way.
    const pinned = (await world.reconciler.volumes()).find((one) => one.name === claim)!.pinnedToNode!;
    await nodeResources(world.deps.connection).setUnschedulable(pinned, true);
    try {
      await startVolumeMove(deps, "default", claim, { storageClassName: "portable" }, alice);
      await expect(startVolumeMove(deps, "default", claim, { storageClassName: "portable", name: "move-twice-again" }, alice)).rejects.toMatchObject({ message: expect.stringContaining("already being moved") });
      expect(await claimNamed("move-twice-again")).toBeNull();
    } finally {
      await nodeResources(world.deps.connection).setUnschedulable(pinned, false);
    }
  });

  it("deletes the new claim again when the person may not make the helper pod", async () => {
    const claim = await pinnedFreeClaim("move-no-pods");
    const limited = await asSomeoneWho("claims-only", [
      { apiGroups: [""], resources: ["persistentvolumeclaims"], verbs: ["get", "list", "create", "delete"] },
      { apiGroups: [""], resources: ["pods"], verbs: ["list"] },
      { apiGroups: ["agents.x-k8s.io"], resources: ["sandboxes"], verbs: ["list"] },
    ]);
    await expect(startVolumeMove(limited, "default", claim, { storageClassName: "portable" }, alice)).rejects.toMatchObject({ code: 403 });
    expect(await claimNamed(`${claim}-moved`)).toBeNull();
  });
});
