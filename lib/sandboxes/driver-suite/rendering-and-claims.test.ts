import { anActor } from "../../domain/test-fixtures.ts";
import { CoreV1Api } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessObjects } from "../../kube/access-objects.ts";
import { SANDBOX_NAME_HASH_LABEL } from "../../domain/sandbox-api.ts";
import { eventually } from "../../sim/testing/eventually.ts";
import { dryRunCreateSandbox } from "../create-sandbox.ts";
import { podDisruptionBudgetName } from "../../render/pod-disruption-budget.ts";
import { deleteSandbox, execInSandbox, setSandboxRunning } from "../sandbox-actions.ts";
import { helperPods } from "../../kube/helper-pods.ts";
import { volumeResources } from "../../kube/volume-resources.ts";
import { listStorageClassViews } from "../storage-classes.ts";
import { expandVolume, type VolumeActionDeps } from "../volume-actions.ts";
import { inPhase } from "../testing/reconciled-world.ts";
import { needsExec, startSuiteWorld, type SuiteWorld } from "./suite-world.ts";

// Driver suite: what Berth renders is what the cluster's Sandbox CRD accepts and its controller
// runs; the claims behind workspaces carry the owners that decide their fate, and deleting a
// sandbox keeps or removes each claim as its ownership says. Runs on the embedded cluster in
// `npm test` and on a real control plane in `npm run test:cluster`.

let world: SuiteWorld;
beforeAll(async () => {
  world = await startSuiteWorld();
}, 120_000);
afterAll(() => world?.stop());

const claimGone = (name: string) => eventually(async () => {
  if (await world.operator.getClaim("default", name)) throw new Error(`claim ${name} is still there`);
}, { timeoutMs: world.cluster.patienceMs });

describe("every profile and workspace backend renders a Sandbox the cluster runs", () => {
  it.each(["generic", "claude", "opencode"])("a %s sandbox on the default class becomes Ready", async (profile) => {
    const record = await world.readySandbox({ name: world.named(profile), profile });
    expect(record.podUid).toBeTruthy();
  });

  it("an ephemeral sandbox becomes Ready with no claim", async () => {
    const name = world.named("scratch");
    await world.readySandbox({ name, workspace: { backend: "ephemeral" } });
    expect(await world.operator.getClaim("default", `workspace-${name}`)).toBeNull();
  });

  it("a sandbox with a portable workspace and an extra volume becomes Ready with both claims bound", async () => {
    const name = world.named("extras");
    await world.readySandbox({
      name,
      workspace: { claim: { ownership: "retain", claimName: `${name}-ws`, storageClassName: world.cluster.storageClasses.portable } },
      volumes: [{ name: "cache", pvc: { claimName: `${name}-cache`, createIfNotExists: true, deleteOnSandboxTermination: true, storageClass: world.cluster.storageClasses.portable, storage: "1Gi" }, mountPath: "/cache" }],
    });
    const phases = await Promise.all([`${name}-ws`, `${name}-cache`].map(async (claim) => (await world.operator.getClaim("default", claim))?.status?.phase));
    expect(phases).toEqual(["Bound", "Bound"]);
  });

  it("a dry run is accepted by the cluster and creates nothing", async () => {
    const name = world.named("dry");
    const { rendered } = await dryRunCreateSandbox(world.deps, { name, disruptionPolicy: { evictionProtection: true } });
    expect([rendered.sandbox.metadata.name, await world.operator.getSandbox("default", name)]).toEqual([name, null]);
  });

  it("a command runs in the sandbox's agent container", async (context) => {
    needsExec(world, context);
    const record = await world.readySandbox({ name: world.named("exec") });
    expect((await execInSandbox(world.deps, record.id, ["sh", "-c", "echo hi"], 10, anActor("alice"))).stdout).toBe("hi\n");
  });
});

describe("a namespace that enforces the restricted Pod Security Standard", () => {
  let namespace: string;
  beforeAll(async () => {
    namespace = world.named("restricted");
    await accessObjects(world.cluster.operatorConnection).ensureNamespace(namespace, { "pod-security.kubernetes.io/enforce": "restricted" });
  });

  it("refuses a pod that does not meet it: the cluster enforces it here", async () => {
    const core = world.cluster.operatorConnection.kubeConfig.makeApiClient(CoreV1Api);
    const created = core.createNamespacedPod({ namespace, body: { metadata: { name: "plain" }, spec: { containers: [{ name: "plain", image: "busybox" }] } } });
    await expect(created).rejects.toMatchObject({ code: 403, body: expect.stringContaining('violates PodSecurity \\"restricted:latest\\"') });
  });

  it.each(["generic", "claude", "opencode"])("admits a %s sandbox's pod, which becomes Ready", async (profile) => {
    const record = await world.readySandbox({ name: world.named(`psa-${profile}`), namespace, profile, workspace: { backend: "ephemeral" } });
    expect(record.podUid).toBeTruthy();
  });

  it("admits a sandbox with a claim as its workspace", async () => {
    const record = await world.readySandbox({ name: world.named("psa-claim"), namespace, workspace: { claim: { ownership: "delete", claimName: world.named("psa-claim-ws") } } });
    expect(record.podUid).toBeTruthy();
  });
});

describe("the cluster's storage classes", () => {
  it("are told apart: the default one node-pinned, the network one portable", async () => {
    const views = await listStorageClassViews(world.cluster.connection);
    const { nodePinned, portable } = world.cluster.storageClasses;
    expect(views.filter((view) => view.name === nodePinned || view.name === portable).map((view) => [view.name, view.isDefault, view.placement])).toEqual([
      [nodePinned, true, "node-pinned"],
      [portable, false, "portable"],
    ]);
  });
});

describe("a protected sandbox's PodDisruptionBudget", () => {
  it("is made with the sandbox and garbage-collected with it", async () => {
    const name = world.named("budgeted");
    const record = await world.readySandbox({ name, disruptionPolicy: { evictionProtection: true } });
    const made = await world.operator.getBudget("default", podDisruptionBudgetName(name));
    await deleteSandbox(world.deps, record.id, anActor("alice"));
    await eventually(async () => {
      if (await world.operator.getBudget("default", podDisruptionBudgetName(name))) throw new Error("the budget is still there");
    }, { timeoutMs: world.cluster.patienceMs });
    expect(made?.spec?.minAvailable).toBe(1);
  });
});

describe("a sandbox-owned (template) workspace claim", () => {
  let name: string;
  let id: string;
  beforeAll(async () => {
    name = world.named("owned");
    id = (await world.readySandbox({ name })).id;
  }, 120_000);

  it("is named after the sandbox and labelled with the sandbox's name hash", async () => {
    const claim = await world.operator.getClaim("default", `workspace-${name}`);
    expect(claim?.metadata?.labels?.[SANDBOX_NAME_HASH_LABEL]).toMatch(/^[0-9a-f]{8}$/);
  });

  it("is owned by the Sandbox through a controller reference", async () => {
    const claim = await world.operator.getClaim("default", `workspace-${name}`);
    const sandbox = await world.operator.getSandbox("default", name);
    expect(claim?.metadata?.ownerReferences?.find((owner) => owner.controller)).toMatchObject({ kind: "Sandbox", name, uid: sandbox?.metadata?.uid });
  });

  it("outlives a stop and is mounted again on start", async () => {
    const claimUid = (await world.operator.getClaim("default", `workspace-${name}`))?.metadata?.uid;
    await setSandboxRunning(world.deps, id, false, anActor("alice"));
    await world.recordWhen(id, inPhase("Stopped"));
    await setSandboxRunning(world.deps, id, true, anActor("alice"));
    await world.recordWhen(id, inPhase("Ready"));
    expect((await world.operator.getClaim("default", `workspace-${name}`))?.metadata?.uid).toBe(claimUid);
  });

  it("is garbage-collected with its sandbox", async () => {
    await deleteSandbox(world.deps, id, anActor("alice"));
    await expect(claimGone(`workspace-${name}`)).resolves.toBeUndefined();
  });
});

describe("a Sandbox deleted with kubectl, not through Berth", () => {
  it("closes its record, saying it was deleted outside Berth", async () => {
    const record = await world.readySandbox({ name: world.named("outside") });
    await world.operator.deleteSandbox("default", record.name);
    const closed = await world.recordWhen(record.id, inPhase("Deleted"));
    expect(closed.reason).toBe("DeletedOutsideBerth");
  });
});

describe("deleting a sandbox keeps or removes each claim as its ownership says", () => {
  it("a retained claim is kept, with no owner left that could collect it", async () => {
    const name = world.named("keeper");
    const record = await world.readySandbox({ name, workspace: { claim: { ownership: "retain", claimName: `${name}-ws` } } });
    const { keptClaims } = await deleteSandbox(world.deps, record.id, anActor("alice"));
    await eventually(async () => {
      if (await world.operator.getPod("default", name)) throw new Error("the pod is still there");
    }, { timeoutMs: world.cluster.patienceMs });
    const claim = await world.operator.getClaim("default", `${name}-ws`);
    expect([keptClaims, claim?.metadata?.deletionTimestamp, claim?.metadata?.ownerReferences ?? []]).toEqual([[`${name}-ws`], undefined, []]);
  });

  it("a claim deleted with its sandbox is removed", async () => {
    const name = world.named("sweeper");
    const record = await world.readySandbox({ name, workspace: { claim: { ownership: "delete", claimName: `${name}-ws` } } });
    const { removedClaims } = await deleteSandbox(world.deps, record.id, anActor("alice"));
    await claimGone(`${name}-ws`);
    expect(removedClaims).toEqual([`${name}-ws`]);
  });
});

describe("growing a workspace claim", () => {
  const volumeDeps = (): VolumeActionDeps => ({ store: world.deps.store, volumes: volumeResources(world.deps.connection, "v1beta1"), known: () => world.reconciler.volumes(), readers: { pods: helperPods(world.deps.connection), labelPrefix: world.deps.defaults.labelPrefix } });

  it("asks for more where the claim's class allows expansion", async () => {
    const name = world.named("growing");
    await world.readySandbox({ name, workspace: { claim: { ownership: "retain", claimName: `${name}-ws`, size: "2Gi", storageClassName: world.cluster.storageClasses.portable } } });
    await expandVolume(volumeDeps(), "default", `${name}-ws`, { size: "3Gi" }, anActor("alice"));
    expect((await world.operator.getClaim("default", `${name}-ws`))?.spec?.resources?.requests?.storage).toBe("3Gi");
  });
});
