import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_GATEWAY_LIMITS } from "../domain/gateway-limits.ts";
import { anActor } from "../domain/test-fixtures.ts";
import { templateResources } from "../kube/template-resources.ts";
import { createTemplate, getTemplate, updateTemplate, type TemplateDeps } from "./templates.ts";
import { startReconciledWorld, type ReconciledWorld } from "./testing/reconciled-world.ts";

// A template's change when the API server refuses half of it: what was changed is put back, so a
// template never says one thing while its pool does another.

let world: ReconciledWorld;
let deps: TemplateDeps;
let counter = 0;
const uniqueName = (what: string) => `${what}-${Date.now().toString(36)}-${++counter}`;

beforeAll(async () => {
  world = await startReconciledWorld();
  deps = { store: world.deps.store, resources: templateResources(world.deps.connection, "v1beta1"), apiVersion: "v1beta1", defaults: world.deps.defaults, limits: DEFAULT_GATEWAY_LIMITS };
});
afterEach(() => world.sim.faults.clearApiFaults());
afterAll(() => world.stop());

const pooled = (name: string, description: string) => ({
  name,
  namespace: "default",
  description,
  sandbox: { workspace: { backend: "ephemeral" } },
  warmPool: { replicas: 1 },
});

describe("a template's edit whose pool change fails", () => {
  it("puts the template back as it was, and says why it failed", async () => {
    const name = uniqueName("undo");
    await createTemplate(deps, pooled(name, "before"), anActor());
    // Removing the pool is the one write not dry-run first (a delete cannot be).
    world.sim.faults.injectApiFault({ verb: "delete", resource: "sandboxwarmpools", code: 500, message: "etcd is unavailable" });
    const change = { ...pooled(name, "after"), warmPool: undefined };
    await expect(updateTemplate(deps, "default", name, change, anActor())).rejects.toMatchObject({ code: 500 });
    expect(await getTemplate(deps, "default", name)).toMatchObject({ description: "before", spec: { warmPool: { replicas: 1 } }, warmPool: { replicas: 1 } });
  });

  it("changes nothing when the pool's change is refused before the template is written", async () => {
    const name = uniqueName("dry");
    await createTemplate(deps, pooled(name, "before"), anActor());
    world.sim.faults.injectApiFault({ verb: "update", resource: "sandboxwarmpools", code: 403, message: "forbidden" });
    await expect(updateTemplate(deps, "default", name, { ...pooled(name, "after"), warmPool: { replicas: 3 } }, anActor())).rejects.toMatchObject({ code: 403 });
    expect(await getTemplate(deps, "default", name)).toMatchObject({ description: "before", warmPool: { replicas: 1 } });
  });
});
