import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Person } from "../../domain/person.ts";
import { anActor } from "../../domain/test-fixtures.ts";
import { connectionFor } from "../../kube/acting-as.ts";
import { snapshotResources } from "../../kube/snapshot-resources.ts";
import { helperPods } from "../../kube/helper-pods.ts";
import { volumeResources } from "../../kube/volume-resources.ts";
import { eventually } from "../../sim/testing/eventually.ts";
import { deleteSandbox } from "../sandbox-actions.ts";
import { listStorageClassViews } from "../storage-classes.ts";
import { createVolume, deleteVolume, setReclaimPolicy, type VolumeActionDeps, type VolumeCreationDeps } from "../volume-actions.ts";
import { platformAdmin, startSuiteWorld, type SuiteWorld } from "./suite-world.ts";

// Driver suite: the Volumes page's self-service, as a platform admin whose RBAC decides — a claim
// made for no sandbox, a clone refused where the class's driver would leave it empty, a volume
// kept after its claim — on the embedded cluster in `npm test` and on a real control plane (whose
// classes have no CSI driver behind them) in `npm run test:cluster`.

let world: SuiteWorld;
let admin: Person;
beforeAll(async () => {
  world = await startSuiteWorld();
  admin = await platformAdmin(world);
}, 120_000);
afterAll(() => world?.stop());

const made: string[] = [];
afterAll(async () => {
  // A real cluster outlives the run.
  for (const name of made) await deleteVolume(actionDeps(), "default", name, anActor("driver-suite")).catch(() => {});
});

const asAdmin = () => volumeResources(connectionFor(world.cluster.connection, { kind: "impersonate", person: admin }), "v1beta1");
const actionDeps = (): VolumeActionDeps => ({
  store: world.deps.store,
  volumes: asAdmin(),
  known: () => world.reconciler.volumes(),
  readers: { pods: helperPods(connectionFor(world.cluster.connection, { kind: "impersonate", person: admin })), labelPrefix: world.deps.defaults.labelPrefix },
});
const creationDeps = (): VolumeCreationDeps => ({
  store: world.deps.store,
  volumes: asAdmin(),
  snapshots: snapshotResources(connectionFor(world.cluster.connection, { kind: "impersonate", person: admin })),
  storageClasses: () => listStorageClassViews(world.cluster.connection),
  labelPrefix: world.deps.defaults.labelPrefix,
  defaultNamespace: "default",
});
const knownWhen = (name: string, check: (volume: Awaited<ReturnType<SuiteWorld["reconciler"]["volumes"]>>[number]) => boolean) =>
  eventually(async () => {
    const volume = (await world.reconciler.volumes()).find((one) => one.namespace === "default" && one.name === name);
    if (!volume || !check(volume)) throw new Error(`claim ${name}: ${JSON.stringify(volume ?? "not known")}`);
    return volume;
  }, { timeoutMs: world.cluster.patienceMs });

/** One claim of the portable class for this file (a real cluster has a fixed number of such volumes). */
let madeClaim: Promise<string> | undefined;
const portableClaim = () =>
  (madeClaim ??= (async () => {
    const name = world.named("made");
    made.push(name);
    await createVolume(creationDeps(), { name, size: "1Gi", storageClassName: world.cluster.storageClasses.portable }, anActor(admin.username));
    return name;
  })());

describe("a claim made for no sandbox", () => {
  it("binds, and is listed as Berth's, free and retained", async () => {
    const volume = await knownWhen(await portableClaim(), (one) => one.phase === "Bound");
    expect([volume.ownership, volume.sandbox, volume.state]).toEqual(["retain", null, "detached"]);
  });
});

describe("a clone of a node-pinned workspace", () => {
  it("is refused on the class, whose provisioner would hand out an empty volume", async () => {
    const sandbox = await world.readySandbox({ name: world.named("pinned-source"), workspace: { claim: { ownership: "retain", storageClassName: world.cluster.storageClasses.nodePinned } } });
    const source = `workspace-${sandbox.name}`;
    made.push(source);
    await knownWhen(source, (one) => one.phase === "Bound");
    await expect(createVolume(creationDeps(), { name: world.named("copy"), size: "10Gi", dataSource: { kind: "PersistentVolumeClaim", name: source } }, anActor(admin.username))).rejects.toMatchObject({
      problems: [{ path: ["storageClassName"], message: expect.stringContaining("the claim would be empty") }],
    });
    await deleteSandbox(world.deps, sandbox.id, anActor("driver-suite"));
  });
});

describe("a claim's volume", () => {
  it("is kept after its claim once switched to Retain, and let go again with Delete", async () => {
    const { volumeName } = await knownWhen(await portableClaim(), (one) => one.phase === "Bound");
    const policyOf = async () => (await world.operator.getPersistentVolume(volumeName!))?.spec?.persistentVolumeReclaimPolicy;
    await setReclaimPolicy(actionDeps(), volumeName!, { reclaimPolicy: "Delete" }, anActor(admin.username));
    expect(await policyOf()).toBe("Delete");
    await setReclaimPolicy(actionDeps(), volumeName!, { reclaimPolicy: "Retain" }, anActor(admin.username));
    expect(await policyOf()).toBe("Retain");
  });
});
