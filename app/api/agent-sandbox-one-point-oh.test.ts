import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Health } from "@/lib/domain/health.ts";
import { demoPersonIdentity } from "@/lib/identity/demo-people.ts";
import { eventually } from "@/lib/sim/testing/eventually.ts";
import { startApiUnderTest, type ApiUnderTest } from "./testing/api-under-test.ts";

// Berth on a cluster whose agent-sandbox serves v1beta1 alone, as agent-sandbox 1.0 does (it
// dropped v1alpha1): nothing Berth asks for is refused, and it says nothing is wrong.

const paula = demoPersonIdentity("paula");
let api: ApiUnderTest;

beforeAll(async () => {
  api = await startApiUnderTest({ BERTH_SIM_CLOCK_SCALE: "100", BERTH_SIM_WITHDRAWN_VERSIONS: "agents.x-k8s.io/v1alpha1,extensions.agents.x-k8s.io/v1alpha1" });
  await api.untilLive();
}, 120_000);
afterAll(async () => api?.stop(), 120_000);

describe("Berth on a cluster that serves v1beta1 alone", () => {
  it("creates a sandbox that comes up Ready", { timeout: 60_000 }, async () => {
    const created = await api.call("createSandbox", paula, { body: { name: "one-oh", namespace: "team-a", profile: "generic", workspace: { backend: "pvc", claim: { ownership: "delete", size: "1Gi" } } } });
    expect(created.status, created.text).toBe(201);
    const [record] = await eventually(async () => {
      const records = await api.liveRecordsNamed("one-oh");
      if (records[0]?.phase !== "Ready") throw new Error(`not Ready: ${records[0]?.phase}`);
      return records;
    }, { timeoutMs: 30_000 });
    expect(record!.phase).toBe("Ready");
  });

  it("reports the install healthy, in v1beta1 for both groups", async () => {
    const health = (await api.call("health", paula)).json as Health;
    expect([health.status, health.cluster.agentSandbox]).toEqual(["ok", { sandboxApiVersion: "v1beta1", extensionsApiVersion: "v1beta1", findings: [] }]);
  });
});
