import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Health } from "@/lib/domain/health.ts";
import { demoPersonIdentity } from "@/lib/identity/demo-people.ts";
import { startApiUnderTest, type ApiUnderTest } from "./testing/api-under-test.ts";

// Berth on a half-migrated agent-sandbox install: the Sandbox definition of one release (v1beta1
// alone) beside the extensions' definitions of an older one (v1alpha1 alone). Sandboxes still
// work, so Berth stays ready; its report is degraded and says what is wrong and what to do.

const paula = demoPersonIdentity("paula");
let api: ApiUnderTest;

beforeAll(async () => {
  api = await startApiUnderTest({ BERTH_SIM_WITHDRAWN_VERSIONS: "agents.x-k8s.io/v1alpha1,extensions.agents.x-k8s.io/v1beta1" });
}, 120_000);
afterAll(async () => api?.stop(), 120_000);

describe("Berth on a half-migrated agent-sandbox install", () => {
  it("reports itself degraded", async () => {
    expect(((await api.call("health", paula)).json as Health).status).toBe("degraded");
  });

  it("says the install is half-migrated and how to mend it", async () => {
    const health = (await api.call("health", paula)).json as Health;
    expect(health.cluster.message).toMatch(/half-migrated: agents\.x-k8s\.io serves v1beta1 but extensions\.agents\.x-k8s\.io serves v1alpha1\. .*apply the CustomResourceDefinitions of one release/);
  });

  it("stays ready, since its Sandboxes still work", async () => {
    expect((await api.call("readiness", null)).status).toBe(200);
  });
});
