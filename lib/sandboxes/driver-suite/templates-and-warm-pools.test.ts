import type { KubernetesObject } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_GATEWAY_LIMITS } from "../../domain/gateway-limits.ts";
import type { Person } from "../../domain/person.ts";
import { sandboxTemplateSpecSchema, type SandboxTemplateSpecInput } from "../../domain/sandbox-template.ts";
import { anActor } from "../../domain/test-fixtures.ts";
import type { TemplateView } from "../../domain/template-view.ts";
import { accessObjects, group } from "../../kube/access-objects.ts";
import { connectionFor } from "../../kube/acting-as.ts";
import { sandboxResources } from "../../kube/sandbox-resources.ts";
import { templateResources } from "../../kube/template-resources.ts";
import { podDisruptionBudgetName } from "../../render/pod-disruption-budget.ts";
import { renderSandboxTemplate } from "../../render/render-template.ts";
import { eventually } from "../../sim/testing/eventually.ts";
import { deleteSandbox, setSandboxRunning } from "../sandbox-actions.ts";
import { claimSandbox, createTemplate, deleteTemplate, getClaim, getTemplate, listTemplates, updateTemplate, type TemplateDeps } from "../templates.ts";
import { needsExec, platformAdmin, startSuiteWorld, type SuiteWorld } from "./suite-world.ts";

// Driver suite: a template as Berth renders it, taken by agent-sandbox's extensions — its warm
// pool filled with Ready sandboxes, a claim handed one of them — on the embedded cluster in
// `npm test` and by the real controller (run with --extensions) in `npm run test:cluster`; and
// the same through Berth's template actions, as a person whose RBAC decides.

let world: SuiteWorld;
const made: { plural: "sandboxtemplates" | "sandboxwarmpools" | "sandboxclaims"; name: string }[] = [];
beforeAll(async () => {
  world = await startSuiteWorld();
}, 120_000);
afterAll(async () => {
  // A real cluster outlives the run: claims first (their sandboxes go with them), then pools and templates.
  for (const { plural, name } of made.reverse()) await world?.operator.deleteExtension(plural, "default", name);
  // Their Sandboxes go by garbage collection; the world's own clean-up, as Berth's service
  // account, must not try to delete a claim (that is done as the person, and the chart's role
  // rightly cannot).
  await eventually(async () => {
    const handedOut = (await world.deps.store.sandboxes.listAllLive()).filter((record) => record.details.handout?.claim);
    if (handedOut.length > 0) throw new Error(`still handed out: ${handedOut.map((record) => record.name).join(", ")}`);
  }, { timeoutMs: world.cluster.patienceMs }).catch((error: unknown) => console.warn((error as Error).message));
  await world?.stop();
});

type Status = { readyReplicas?: number; replicas?: number; conditions?: { type: string; status: string }[]; sandbox?: { name?: string } };
const statusOf = (object: KubernetesObject | null) => ((object as { status?: Status } | null)?.status ?? {}) as Status;

async function pooledTemplate(base: string, replicas: number): Promise<string> {
  const name = world.named(base);
  const template = sandboxTemplateSpecSchema.parse({
    name,
    namespace: "default",
    sandbox: { workspace: { backend: "ephemeral" }, disruptionPolicy: { terminationGracePeriodSeconds: 3 } },
    warmPool: { replicas },
  });
  const { sandboxTemplate, warmPool } = renderSandboxTemplate({ template, defaults: world.deps.defaults, apiVersion: "v1beta1" });
  await world.operator.createExtension("sandboxtemplates", "default", sandboxTemplate);
  made.push({ plural: "sandboxtemplates", name });
  await world.operator.createExtension("sandboxwarmpools", "default", warmPool!);
  made.push({ plural: "sandboxwarmpools", name });
  return name;
}

const poolReady = (name: string, replicas: number) =>
  eventually(async () => {
    const status = statusOf(await world.operator.getExtension("sandboxwarmpools", "default", name));
    if (status.readyReplicas !== replicas) throw new Error(`pool ${name}: ${JSON.stringify(status)}`);
    return status;
  }, { timeoutMs: world.cluster.patienceMs });

describe("a Berth template on agent-sandbox's extensions", () => {
  it("fills its warm pool with Ready sandboxes running the template's pod", async () => {
    const name = await pooledTemplate("pool", 2);
    await poolReady(name, 2);
    const members = (await world.operator.listSandboxes("default")).filter((sandbox) => sandbox.metadata?.name?.startsWith(`${name}-`));
    const pods = await Promise.all(members.map((sandbox) => world.operator.getPod("default", sandbox.metadata!.name!)));
    expect(pods.map((pod) => [pod?.metadata?.labels?.["berth.dev/template"], pod?.spec?.containers[0]?.name])).toEqual([[name, "agent"], [name, "agent"]]);
  });

  it("hands a claim one of its Ready sandboxes", async () => {
    const name = await pooledTemplate("claimed", 1);
    await poolReady(name, 1);
    const [warm] = (await world.operator.listSandboxes("default")).filter((sandbox) => sandbox.metadata?.name?.startsWith(`${name}-`));
    const claimName = world.named("claim");
    await world.operator.createExtension("sandboxclaims", "default", { apiVersion: "extensions.agents.x-k8s.io/v1beta1", kind: "SandboxClaim", metadata: { name: claimName }, spec: { warmPoolRef: { name } } });
    made.push({ plural: "sandboxclaims", name: claimName });
    const claimed = await eventually(async () => {
      const status = statusOf(await world.operator.getExtension("sandboxclaims", "default", claimName));
      if (!status.conditions?.some((condition) => condition.type === "Ready" && condition.status === "True")) throw new Error(`claim: ${JSON.stringify(status)}`);
      return status;
    }, { timeoutMs: world.cluster.patienceMs });
    expect(claimed.sandbox?.name).toBe(warm!.metadata!.name);
  });
});

describe("templates through Berth, as the person asking", () => {
  let admin: Person;
  beforeAll(async () => {
    admin = await platformAdmin(world);
  });

  const depsAs = (person: Person): TemplateDeps => ({
    store: world.deps.store,
    resources: templateResources(connectionFor(world.cluster.connection, { kind: "impersonate", person }), "v1beta1"),
    apiVersion: "v1beta1",
    defaults: world.deps.defaults,
    limits: DEFAULT_GATEWAY_LIMITS,
  });
  const templateInput = (name: string, replicas: number): SandboxTemplateSpecInput => ({
    name,
    namespace: "default",
    description: "ephemeral agents",
    sandbox: { workspace: { backend: "ephemeral" }, disruptionPolicy: { terminationGracePeriodSeconds: 3 } },
    warmPool: { replicas },
  });
  const viewWhen = (name: string, check: (view: TemplateView) => boolean) =>
    eventually(async () => {
      const view = await getTemplate(depsAs(admin), "default", name);
      if (!check(view)) throw new Error(`template ${name}: ${JSON.stringify(view.warmPool)}`);
      return view;
    }, { timeoutMs: world.cluster.patienceMs });
  const stored = async (name: string) => ({
    template: (await world.operator.getExtension("sandboxtemplates", "default", name)) !== null,
    pool: (await world.operator.getExtension("sandboxwarmpools", "default", name)) !== null,
  });

  describe("a platform admin's pooled template", () => {
    let name: string;
    beforeAll(async () => {
      name = world.named("berth-pool");
      made.push({ plural: "sandboxtemplates", name }, { plural: "sandboxwarmpools", name });
      await createTemplate(depsAs(admin), templateInput(name, 1), anActor(admin.username));
    });

    it("is shown as it was given, its pool filling to its target", async () => {
      const view = await viewWhen(name, (one) => one.warmPool?.ready === 1);
      expect(view).toMatchObject({ managedByBerth: true, description: "ephemeral agents", spec: { name, sandbox: { workspace: { backend: "ephemeral" } } }, warmPool: { replicas: 1, ready: 1 } });
    });

    it("grows its pool when edited to more replicas", async () => {
      await updateTemplate(depsAs(admin), "default", name, templateInput(name, 2), anActor(admin.username));
      await viewWhen(name, (one) => one.warmPool?.replicas === 2 && one.warmPool.ready === 2);
    });

    it("is listed with its pool's counts", async () => {
      const listed = (await listTemplates(depsAs(admin), "default")).find((one) => one.name === name);
      expect(listed?.warmPool?.replicas).toBe(2);
    });

    it("goes with its pool and the pool's sandboxes when deleted", async () => {
      await deleteTemplate(depsAs(admin), "default", name, anActor(admin.username));
      expect(await stored(name)).toEqual({ template: false, pool: false });
      await eventually(async () => {
        const members = (await world.operator.listSandboxes("default")).filter((sandbox) => sandbox.metadata?.name?.startsWith(`${name}-`) && !sandbox.metadata.deletionTimestamp);
        if (members.length > 0) throw new Error(`still pooled: ${members.map((one) => one.metadata?.name).join(", ")}`);
      }, { timeoutMs: world.cluster.patienceMs });
    });
  });

  it("refuses a person who may make templates but not warm pools before making anything", async () => {
    const author: Person = { username: world.named("tess"), groups: [world.named("template-authors")] };
    const operator = accessObjects(world.cluster.operatorConnection);
    const role = world.named("template-author");
    await operator.ensureClusterRole(role, [{ apiGroups: ["extensions.agents.x-k8s.io"], resources: ["sandboxtemplates"], verbs: ["get", "list", "create", "update", "delete"] }]);
    await operator.ensureClusterRoleBinding(role, role, [group(author.groups[0]!)]);
    const name = world.named("half");
    made.push({ plural: "sandboxtemplates", name });
    await expect(createTemplate(depsAs(author), templateInput(name, 1), anActor(author.username))).rejects.toMatchObject({ code: 403 });
    expect(await stored(name)).toEqual({ template: false, pool: false });
  });

  it("shows a template made elsewhere, and refuses to edit it", async () => {
    const name = world.named("foreign");
    made.push({ plural: "sandboxtemplates", name });
    await world.operator.createExtension("sandboxtemplates", "default", {
      apiVersion: "extensions.agents.x-k8s.io/v1beta1",
      kind: "SandboxTemplate",
      metadata: { name },
      spec: { podTemplate: { spec: { containers: [{ name: "agent", image: "python:3.12-slim" }] } } },
    });
    expect(await getTemplate(depsAs(admin), "default", name)).toMatchObject({ managedByBerth: false, spec: null, image: "python:3.12-slim", warmPool: null });
    await expect(updateTemplate(depsAs(admin), "default", name, templateInput(name, 1), anActor(admin.username))).rejects.toMatchObject({ name: "TemplateConflictError" });
  });

  it("refuses a second template of a taken name, naming the field", async () => {
    const name = world.named("taken");
    made.push({ plural: "sandboxtemplates", name });
    await createTemplate(depsAs(admin), { ...templateInput(name, 0), warmPool: undefined }, anActor(admin.username));
    await expect(createTemplate(depsAs(admin), { ...templateInput(name, 0), warmPool: undefined }, anActor(admin.username))).rejects.toMatchObject({ name: "TemplateConflictError", path: ["name"] });
  });

  describe("a sandbox from a template", () => {
    const claimed = async (template: string, claim: string) => {
      made.push({ plural: "sandboxclaims", name: claim });
      await claimSandbox(depsAs(admin), "default", { name: claim, template }, anActor(admin.username));
      const answered = await eventually(async () => {
        const state = await getClaim(depsAs(admin), "default", claim);
        if (!state.ready || !state.sandbox) throw new Error(`claim ${claim}: ${JSON.stringify(state)}`);
        return state;
      }, { timeoutMs: world.cluster.patienceMs });
      const record = await eventually(async () => {
        const found = (await world.deps.store.sandboxes.findLiveSandbox("default", answered.sandbox!)) ?? null;
        if (!found) throw new Error(`Berth does not follow ${answered.sandbox} yet`);
        return found;
      }, { timeoutMs: world.cluster.patienceMs });
      return { sandbox: answered.sandbox!, record };
    };
    const toldOnTimeline = (id: string, reason: string) =>
      eventually(async () => {
        const events = await world.deps.store.timeline.listForSandbox(id, { limit: 100 });
        const told = events.find((event) => event.reason === reason);
        if (!told) throw new Error(`timeline: ${events.map((event) => event.reason).join(", ")}`);
        return told;
      }, { timeoutMs: world.cluster.patienceMs });

    it("comes warm from the pool when a member is ready, and its timeline says so", async () => {
      const template = world.named("warm");
      made.push({ plural: "sandboxtemplates", name: template }, { plural: "sandboxwarmpools", name: template });
      await createTemplate(depsAs(admin), templateInput(template, 1), anActor(admin.username));
      await viewWhen(template, (one) => one.warmPool?.ready === 1);
      const { sandbox, record } = await claimed(template, world.named("warm-claim"));
      expect(sandbox.startsWith(`${template}-`)).toBe(true);
      const told = await toldOnTimeline(record.id, "HandedOutWarm");
      expect(told.message).toContain(`from warm pool ${template}`);
    });

    it("starts cold, named like the claim, when no member is ready, and its timeline says so", async () => {
      const template = world.named("cold");
      made.push({ plural: "sandboxtemplates", name: template }, { plural: "sandboxwarmpools", name: template });
      await createTemplate(depsAs(admin), templateInput(template, 0), anActor(admin.username));
      const claim = world.named("cold-claim");
      const { sandbox, record } = await claimed(template, claim);
      expect(sandbox).toBe(claim);
      await toldOnTimeline(record.id, "StartedCold");
    });

    it("is deleted with its claim, so the claim starts no other", async () => {
      const template = world.named("gone");
      made.push({ plural: "sandboxtemplates", name: template }, { plural: "sandboxwarmpools", name: template });
      await createTemplate(depsAs(admin), templateInput(template, 0), anActor(admin.username));
      const claim = world.named("gone-claim");
      const { record } = await claimed(template, claim);
      await world.recordWhen(record.id, (one) => expect(one.details.handout?.claim).toBe(claim));
      const asAdmin = connectionFor(world.cluster.connection, { kind: "impersonate", person: admin });
      await deleteSandbox({ ...world.deps, resources: sandboxResources(asAdmin, "v1beta1") }, record.id, anActor(admin.username));
      await eventually(async () => {
        if (await world.operator.getExtension("sandboxclaims", "default", claim)) throw new Error("the claim is still there");
        if ((await world.operator.listSandboxes("default")).some((one) => one.metadata?.name === claim && !one.metadata.deletionTimestamp)) throw new Error("a sandbox named like the claim is there");
      }, { timeoutMs: world.cluster.patienceMs });
    });

    it("stops and starts again as any sandbox, still its claim's and not replaced by it", async () => {
      const template = world.named("pausable");
      made.push({ plural: "sandboxtemplates", name: template }, { plural: "sandboxwarmpools", name: template });
      await createTemplate(depsAs(admin), templateInput(template, 1), anActor(admin.username));
      await viewWhen(template, (one) => one.warmPool?.ready === 1);
      const claim = world.named("pausable-claim");
      const { sandbox, record } = await claimed(template, claim);
      const asAdmin = { ...world.deps, resources: sandboxResources(connectionFor(world.cluster.connection, { kind: "impersonate", person: admin }), "v1beta1") };
      const podBefore = (await world.operator.getPod("default", sandbox))?.metadata?.uid;
      await setSandboxRunning(asAdmin, record.id, false, anActor(admin.username));
      await eventually(async () => {
        if (await world.operator.getPod("default", sandbox)) throw new Error("the pod is still there");
      }, { timeoutMs: world.cluster.patienceMs });
      // The claim keeps its stopped sandbox: it neither starts another nor takes one from the pool.
      expect(statusOf(await world.operator.getExtension("sandboxclaims", "default", claim)).sandbox?.name).toBe(sandbox);
      await setSandboxRunning(asAdmin, record.id, true, anActor(admin.username));
      const started = await world.recordWhen(record.id, (one) => expect(one.phase).toBe("Ready"));
      expect([started.details.handout?.claim, podBefore !== undefined && started.podUid !== podBefore]).toEqual([claim, true]);
    });

    it("has Berth's state marker written in its workspace once handed out, as a sandbox Berth made", async (context) => {
      needsExec(world, context);
      const template = world.named("marked");
      made.push({ plural: "sandboxtemplates", name: template }, { plural: "sandboxwarmpools", name: template });
      await createTemplate(depsAs(admin), templateInput(template, 1), anActor(admin.username));
      await viewWhen(template, (one) => one.warmPool?.ready === 1);
      const { sandbox, record } = await claimed(template, world.named("marked-claim"));
      const pod = (await world.operator.getPod("default", sandbox))?.metadata?.uid;
      await world.recordWhen(record.id, (one) => expect(one.details.stateMarker?.podUid).toBe(pod));
    });

    describe("from a template asking for eviction protection", () => {
      let template: string;
      let handedOut: { sandbox: string; record: { id: string } };
      beforeAll(async () => {
        template = world.named("guarded-pool");
        made.push({ plural: "sandboxtemplates", name: template }, { plural: "sandboxwarmpools", name: template });
        const input = templateInput(template, 2);
        await createTemplate(depsAs(admin), { ...input, sandbox: { ...input.sandbox, disruptionPolicy: { terminationGracePeriodSeconds: 3, evictionProtection: true } } }, anActor(admin.username));
        await viewWhen(template, (one) => one.warmPool?.ready === 2);
        handedOut = await claimed(template, world.named("guarded-claim"));
        await world.recordWhen(handedOut.record.id, (record) => {
          if (!record.details.protection?.refusingEvictions) throw new Error(`not protected yet: ${JSON.stringify(record.details.protection)}`);
        });
      }, 240_000);

      it("is not evicted once handed out: its budget refuses", async () => {
        expect((await world.operator.evict({ namespace: "default", name: handedOut.sandbox })).outcome).toBe("refused");
      });

      it("says on its timeline that the hand-out brought the budget", async () => {
        expect((await toldOnTimeline(handedOut.record.id, "BudgetCreated")).message).toContain(`as template ${template} asks`);
      });

      it("gets its budget back when someone deletes it", async () => {
        const budget = podDisruptionBudgetName(handedOut.sandbox);
        const first = (await world.operator.getBudget("default", budget))?.metadata?.uid;
        await world.operator.deleteBudget("default", budget);
        await eventually(async () => {
          const again = await world.operator.getBudget("default", budget);
          if (!again || again.metadata?.uid === first) throw new Error("no new budget yet");
        }, { timeoutMs: world.cluster.patienceMs });
      });

      it("leaves the pool's waiting members unprotected, for a drain to take", async () => {
        const waiting = (await world.operator.listSandboxes("default")).filter((one) => one.metadata?.name?.startsWith(`${template}-`) && one.metadata.name !== handedOut.sandbox);
        expect(waiting.length).toBeGreaterThan(0);
        for (const member of waiting) expect(await world.operator.getBudget("default", podDisruptionBudgetName(member.metadata!.name!))).toBeNull();
      });
    });

    it("is refused from a template without a warm pool, saying how to give it one", async () => {
      const template = world.named("poolless");
      made.push({ plural: "sandboxtemplates", name: template });
      await createTemplate(depsAs(admin), { ...templateInput(template, 0), warmPool: undefined }, anActor(admin.username));
      await expect(claimSandbox(depsAs(admin), "default", { name: world.named("none"), template }, anActor(admin.username))).rejects.toThrow(/give it a warm pool/);
    });
  });
});
