import type { KubernetesObject } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxTemplateSpecSchema } from "../../domain/sandbox-template.ts";
import { renderSandboxTemplate } from "../../render/render-template.ts";
import { eventually } from "../../sim/testing/eventually.ts";
import { startSuiteWorld, type SuiteWorld } from "./suite-world.ts";

// Driver suite: a template as Berth renders it, taken by agent-sandbox's extensions — its warm
// pool filled with Ready sandboxes, a claim handed one of them — on the embedded cluster in
// `npm test` and by the real controller (run with --extensions) in `npm run test:cluster`.

let world: SuiteWorld;
const made: { plural: "sandboxtemplates" | "sandboxwarmpools" | "sandboxclaims"; name: string }[] = [];
beforeAll(async () => {
  world = await startSuiteWorld();
}, 120_000);
afterAll(async () => {
  // A real cluster outlives the run: claims first (their sandboxes go with them), then pools and templates.
  for (const { plural, name } of made.reverse()) await world?.operator.deleteExtension(plural, "default", name);
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
