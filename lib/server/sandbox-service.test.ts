import { anActor } from "../domain/test-fixtures.ts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadServerConfig, type ServerConfig } from "../config/index.ts";
import { connectToEmbeddedCluster } from "../kube/cluster-connection.ts";
import { dryRunCreateSandbox } from "../sandboxes/create-sandbox.ts";
import { changeGatewaySettings, gatewaySettings } from "../sandboxes/gateway-settings.ts";
import { LiveSandboxes } from "../sandboxes/live-sandboxes.ts";
import { OperationsInFlight } from "../sandboxes/operations-in-flight.ts";
import { startSimulatedCluster, type SimCluster } from "../sim/index.ts";
import type { Store } from "../store/index.ts";
import { openTestStore } from "../store/test-databases.ts";
import { sandboxServiceDeps, type ServiceRuntime } from "./sandbox-service.ts";

// The create path reads the gateway defaults in effect at each call: a change made through the
// settings API shows in the very next dry run, against the simulated cluster.

let sim: SimCluster;
let store: Store;
let cleanup: () => Promise<void>;
let runtime: ServiceRuntime;

function configFrom(env: Record<string, string>): ServerConfig {
  return loadServerConfig({ env, cwd: "/tmp", readFile: () => "", fileExists: () => false });
}

beforeAll(async () => {
  sim = await startSimulatedCluster({ clockScale: 200 });
  ({ store, cleanup } = await openTestStore());
  runtime = {
    config: configFrom({ BERTH_WORKSPACE_DEFAULT_STORAGE_SIZE: "3Gi", BERTH_NAMESPACES: "default" }),
    store,
    cluster: { connection: connectToEmbeddedCluster(sim.serverUrl, sim.adminToken), simulatorUrl: sim.serverUrl, stop: async () => {} },
    inFlight: new OperationsInFlight(),
    live: new LiveSandboxes(),
    checkpointing: new OperationsInFlight(),
  };
});
afterAll(async () => {
  await sim.stop();
  await cleanup();
});
beforeEach(() => changeGatewaySettings(runtime, { reset: ["workspaceBackend", "workspaceDefaultStorageSize", "workspaceStorageClass", "sandboxNamespace"] }, anActor("test-setup")));

type Rendered = { sandbox: { metadata: { namespace: string }; spec: { volumeClaimTemplates?: { spec: { resources: { requests: { storage: string } }; storageClassName?: string } }[] } } };
async function dryRun(name: string): Promise<Rendered> {
  const { rendered } = await dryRunCreateSandbox(await sandboxServiceDeps(runtime), { name });
  return rendered as unknown as Rendered;
}

describe("the gateway defaults of the create path", () => {
  it("follow a change made through the settings API at the next dry run", async () => {
    const before = await dryRun("settings-before");
    expect(before.sandbox.spec.volumeClaimTemplates?.[0]?.spec.resources.requests.storage).toBe("3Gi");
    expect(before.sandbox.spec.volumeClaimTemplates?.[0]?.spec).not.toHaveProperty("storageClassName");

    await changeGatewaySettings(runtime, { workspaceDefaultStorageSize: "7Gi", workspaceStorageClass: "portable" }, anActor("alice"));
    const after = await dryRun("settings-after");
    expect(after.sandbox.spec.volumeClaimTemplates?.[0]?.spec).toMatchObject({ resources: { requests: { storage: "7Gi" } }, storageClassName: "portable" });

    await changeGatewaySettings(runtime, { workspaceBackend: "ephemeral" }, anActor("alice"));
    expect((await dryRun("settings-ephemeral")).sandbox.spec.volumeClaimTemplates).toBeUndefined();
  });

  it("go back to the configuration on reset", async () => {
    await changeGatewaySettings(runtime, { workspaceDefaultStorageSize: "7Gi" }, anActor("alice"));
    await changeGatewaySettings(runtime, { reset: ["workspaceDefaultStorageSize"] }, anActor("alice"));
    expect((await dryRun("settings-reset")).sandbox.spec.volumeClaimTemplates?.[0]?.spec.resources.requests.storage).toBe("3Gi");
  });
});

describe("the settings in effect", () => {
  it("say where each value came from, and what the configuration says under a change", async () => {
    await changeGatewaySettings(runtime, { workspaceStorageClass: "" }, anActor("alice"));
    const settings = await gatewaySettings(runtime);
    expect(settings.find((one) => one.key === "workspaceDefaultStorageSize")).toMatchObject({ value: "3Gi", source: "environment", editable: true, changedBy: null });
    expect(settings.find((one) => one.key === "workspaceStorageClass")).toMatchObject({ value: "", source: "berth", configured: null, configuredBy: "default", changedBy: "alice" });
    expect(settings.find((one) => one.key === "labelPrefix")).toMatchObject({ value: "berth.dev", editable: false, helmValue: "server.labelPrefix" });
  });

  it("refuse an invalid value with the field and what is allowed, and change nothing", async () => {
    const attempt = changeGatewaySettings(runtime, { workspaceBackend: "nfs", workspaceDefaultStorageSize: "7Gi" }, anActor("alice"));
    await expect(attempt).rejects.toMatchObject({
      name: "RequestRejectedError",
      problems: [{ path: ["workspaceBackend"], message: "workspace backend must be one of: pvc, ephemeral. Allowed: pvc or ephemeral" }],
    });
    expect((await gatewaySettings(runtime)).find((one) => one.key === "workspaceDefaultStorageSize")?.value).toBe("3Gi");
  });

  it("refuse a change to a configuration-only key, naming it", async () => {
    await expect(changeGatewaySettings(runtime, { labelPrefix: "example.com" }, anActor("alice"))).rejects.toMatchObject({
      problems: [{ path: ["labelPrefix"], message: expect.stringContaining("set by configuration only") }],
    });
  });
});
