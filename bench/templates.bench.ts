// Sandboxes from a template on the embedded cluster: from a claim to the claim Ready (its
// sandbox running and handed over), taken warm from a pool of ready sandboxes or started cold
// for it — what "a sandbox in a second" is measured by. Fixed workload: CLAIMS claims each way,
// one after another. The cluster's clock runs in real time: sped up, a cold start's second of pod
// sandbox and network setup would shrink to nothing beside Berth's own time, and the comparison
// would say nothing.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DEFAULT_GATEWAY_LIMITS } from "../lib/domain/gateway-limits.ts";
import { anActor } from "../lib/domain/test-fixtures.ts";
import { templateResources } from "../lib/kube/template-resources.ts";
import { startReconciledWorld } from "../lib/sandboxes/testing/reconciled-world.ts";
import { claimSandbox, createTemplate, getClaim, getTemplate, type TemplateDeps } from "../lib/sandboxes/templates.ts";
import { openStore } from "../lib/store/index.ts";
import { measure, type Measurement } from "./measure.ts";

const CLAIMS = 10;
const CLOCK_SCALE = 1;
const POLL_MS = 2;

export interface TemplatesBenchResult {
  clockScale: number;
  warm: Measurement;
  cold: Measurement;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await pause(POLL_MS);
}

export async function benchTemplates(): Promise<TemplatesBenchResult> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "berth-bench-templates-"));
  const openBenchStore = async () => {
    const store = await openStore({ kind: "pglite", dataDir });
    return { store, cleanup: async () => { await store.close(); rmSync(dataDir, { recursive: true, force: true }); } };
  };
  const world = await startReconciledWorld({ clockScale: CLOCK_SCALE, workers: 3, defaultStorageClass: "portable" }, openBenchStore);
  try {
    const deps: TemplateDeps = { store: world.deps.store, resources: templateResources(world.deps.connection, "v1beta1"), apiVersion: "v1beta1", defaults: world.deps.defaults, limits: DEFAULT_GATEWAY_LIMITS };
    const template = (name: string, replicas: number) => ({ name, sandbox: { workspace: { backend: "ephemeral" } }, warmPool: { replicas } });
    await createTemplate(deps, template("warm", CLAIMS), anActor());
    await createTemplate(deps, template("cold", 0), anActor());
    await until(async () => (await getTemplate(deps, "default", "warm")).warmPool?.ready === CLAIMS);
    const claimed = (from: string) => async (i: number) => {
      const name = `${from}-claim-${i}`;
      await claimSandbox(deps, "default", { name, template: from }, anActor());
      await until(async () => (await getClaim(deps, "default", name)).ready);
    };
    const warm = await measure("claim → Ready, warm (a pool member handed over)", CLAIMS, claimed("warm"));
    const cold = await measure("claim → Ready, cold (a sandbox started for the claim)", CLAIMS, claimed("cold"));
    return { clockScale: CLOCK_SCALE, warm, cold };
  } finally {
    await world.stop();
  }
}
